import type { SubmissionResult } from "@conform-to/react";
import { FLOW_NODE_TYPES } from "#contracts/codes";
import { FLOW_NODE_KEY_RULE } from "#contracts/robot";
import { CodeSelect } from "#app/components/code-select";
import { CsrfInput } from "#app/components/csrf-input";
import { EditedVersionInputs, type EditedVersion } from "#app/components/edited-version";
import { firstError } from "#app/components/form-field";

/** A node added at the end of a draft: its key, type and name; what was typed comes back on a refusal. */
export function AddNodeForm({ edited, refusal }: { edited: EditedVersion; refusal: SubmissionResult<string[]> | undefined }) {
  return (
    <form method="post" className="sb-inline-forms" aria-labelledby="node-add-title">
      <h3 id="node-add-title">添加节点</h3>
      <CsrfInput />
      <input type="hidden" name="intent" value="node.add" />
      <EditedVersionInputs edited={edited} />
      <div className="sb-field">
        <label htmlFor="add-key">节点编号</label>
        <input
          id="add-key"
          name="key"
          required
          maxLength={20}
          pattern="[A-Za-z0-9_\-]{1,20}"
          title={FLOW_NODE_KEY_RULE}
          defaultValue={String(refusal?.initialValue?.key ?? "")}
          className={`p-inputtext${refusal ? " p-invalid" : ""}`}
          aria-invalid={refusal ? true : undefined}
          aria-describedby={refusal ? "add-key-hint add-error" : "add-key-hint"}
        />
        <small id="add-key-hint" className="sb-hint">
          {FLOW_NODE_KEY_RULE}
        </small>
        {refusal ? (
          <small id="add-error" className="p-error">
            {firstError(refusal)}
          </small>
        ) : null}
      </div>
      <CodeSelect
        id="add-type"
        name="type"
        label="类型"
        table={FLOW_NODE_TYPES}
        defaultValue={String(refusal?.initialValue?.type ?? "speak")}
      />
      <div className="sb-field">
        <label htmlFor="add-name">节点名称</label>
        <input
          id="add-name"
          name="name"
          required
          maxLength={30}
          defaultValue={String(refusal?.initialValue?.name ?? "")}
          className="p-inputtext"
        />
      </div>
      <button type="submit" className="p-button p-button-outlined">
        添加节点
      </button>
    </form>
  );
}
