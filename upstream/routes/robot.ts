import { PassThrough } from "node:stream";
import ExcelJS from "exceljs";
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { z } from "zod";
import { FLOW_NODE_TYPES, FLOW_VERSION_STATES, INTENT_LABELS, labelOf } from "#contracts/codes";
import { FlowState, type FlowAction } from "#contracts/flow-versions";
import {
  FlowDesignSaveSchema,
  FlowDesignQuerySchema,
  FlowListQuerySchema,
  FlowNewInputSchema,
  FlowParamQuerySchema,
  FlowParamsSaveSchema,
  FlowReturnInputSchema,
  FlowStateQuerySchema,
  FlowVersionInputSchema,
  NluTestInputSchema,
  RobotAllocateInputSchema,
  RobotCopyInputSchema,
  RobotInstanceInputSchema,
  RobotInstanceListQuerySchema,
  RobotTransferInputSchema,
  type FlowDesign,
  type FlowNode,
  type FlowParamItem,
  type NluResult,
} from "#contracts/robot";
import { DEFAULT_INTENT_KEYWORDS, diffDesigns, exitsOf, recognise, starterDesign, validateDesign } from "#upstream/domain/flow-design";
import { HttpError, ok, parseInput } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";
import { changeAs } from "#upstream/repositories/audit-log";
import { listRobotInstances } from "#upstream/repositories/campaign-choices";
import type { Trx } from "#upstream/db";
import {
  createFlow,
  findFlow,
  flowDetail,
  listFlows,
  loadVersion,
  moveVersion,
  paramsInService,
  saveDesign,
  saveParams,
  toVersion,
  versionParams,
} from "#upstream/repositories/robot-flows";
import { allocateRobot, copyRobot, deleteRobot, transferRobot, updateRobot } from "#upstream/repositories/robot-instances";

const IdParamsSchema = z.object({ id: z.coerce.number().int().positive() });

const stateLabel = (state: number) => labelOf(FLOW_VERSION_STATES, state);
const TRANSITION_WORDS: Record<Exclude<FlowAction, "design">, string> = {
  submit: "提交审核",
  return: "退回",
  publish: "发布",
  rollback: "重新上线（回滚）",
  market: "上架",
  cover: "复制为新草稿",
};

/** A spreadsheet streamed to the reply (exceljs writes it row by row). */
function sendXlsx(reply: FastifyReply, fileName: string, fill: (sheet: ExcelJS.Worksheet) => void) {
  const body = new PassThrough();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: body, useSharedStrings: false });
  const sheet = book.addWorksheet("Sheet1");
  fill(sheet);
  sheet.commit();
  void book.commit();
  return reply
    .header("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    .header("Content-Disposition", `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
    .send(body);
}

/**
 * The robot service (`/robot/api`, endpoints.md A and R rows, decision 019): flows and their
 * versions, the NLU test, exports; a flow's input parameters and output states (read on the call
 * lists, for the call detail). Everything else is administrators' only (their menus, decision 044),
 * every change with its audit row in the same transaction.
 */
export const robotRoutes: FastifyPluginAsync = async (app) => {
  app.post("/robot/api/robot/instance/list", async (request) => {
    const user = requireUser(request);
    return ok(await listRobotInstances(app.db, user.tenantId, parseInput(RobotInstanceListQuerySchema, request.body)));
  });

  // Robot instances: administrators change them, each change with its audit row.
  app.put("/robot/api/robot/instance/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const input = parseInput(RobotInstanceInputSchema, request.body);
    return ok(
      await changeAs(app.db, user, async (trx) => {
        const { before, after } = await updateRobot(trx, user.tenantId, id, input);
        return {
          result: after,
          audit: {
            action: "robot.update",
            target: { type: "robot", id },
            summary: `编辑机器人「${after.name}」`,
            detail: { before, after },
          },
        };
      }),
    );
  });

  app.delete("/robot/api/robot/instance/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    await changeAs(app.db, user, async (trx) => {
      const gone = await deleteRobot(trx, user.tenantId, id);
      return { result: null, audit: { action: "robot.delete", target: { type: "robot", id }, summary: `删除机器人「${gone.name}」` } };
    });
    return ok({ id });
  });

  app.post("/robot/api/robot/instance/allocate", async (request) => {
    const user = requireUser(request);
    const { id, queueName } = parseInput(RobotAllocateInputSchema, request.body);
    return ok(
      await changeAs(app.db, user, async (trx) => {
        const robot = await allocateRobot(trx, user.tenantId, id, queueName);
        return {
          result: robot,
          audit: {
            action: "robot.allocate",
            target: { type: "robot", id },
            summary: `机器人「${robot.name}」转人工队列设为${queueName ? `「${queueName}」` : "无"}`,
          },
        };
      }),
    );
  });

  app.post("/robot/api/robot/instance/transfer", async (request) => {
    const user = requireUser(request);
    const { id, flowId } = parseInput(RobotTransferInputSchema, request.body);
    return ok(
      await changeAs(app.db, user, async (trx) => {
        const { before, after } = await transferRobot(trx, user.tenantId, id, flowId);
        return {
          result: after,
          audit: {
            action: "robot.transfer",
            target: { type: "robot", id },
            summary: `机器人「${after.name}」由流程「${before.flowName ?? "无"}」转到「${after.flowName}」`,
          },
        };
      }),
    );
  });

  app.post("/robot/api/robot/instance/copy", async (request) => {
    const user = requireUser(request);
    const { id, name } = parseInput(RobotCopyInputSchema, request.body);
    return ok(
      await changeAs(app.db, user, async (trx) => {
        const copy = await copyRobot(trx, user.tenantId, id, name);
        return {
          result: copy,
          audit: { action: "robot.copy", target: { type: "robot", id: copy.id }, summary: `复制机器人为「${name}」` },
        };
      }),
    );
  });

  app.get("/robot/api/flow/param", async (request) => {
    const user = requireUser(request);
    const query = parseInput(FlowParamQuerySchema, request.query);
    return ok<{ list: FlowParamItem[] }>({ list: await paramsInService(app.db, user.tenantId, query.id, "input") });
  });

  app.get("/robot/api/flow/state", async (request) => {
    const user = requireUser(request);
    const query = parseInput(FlowStateQuerySchema, request.query);
    return ok<{ list: FlowParamItem[] }>({ list: await paramsInService(app.db, user.tenantId, query.flowId, "state") });
  });

  // Flows
  app.post("/robot/api/flow/list", async (request) => {
    const user = requireUser(request);
    return ok(await listFlows(app.db, user.tenantId, parseInput(FlowListQuerySchema, request.body)));
  });

  app.post("/robot/api/flow/new", async (request) => {
    const user = requireUser(request);
    const input = parseInput(FlowNewInputSchema, request.body);
    return ok(
      await changeAs(app.db, user, async (trx) => {
        const flow = await createFlow(trx, user.tenantId, user.realName, input, starterDesign());
        return {
          result: flow,
          audit: { action: "flow.create", target: { type: "flow", id: flow.id }, summary: `新建流程「${flow.name}」（草稿 v1.0）` },
        };
      }),
    );
  });

  app.get("/robot/api/flow/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    return ok(await flowDetail(app.db, user.tenantId, id));
  });

  /** A version's design with its problems and its changes against the version in service. */
  async function designOf(db: Trx, tenantId: number, flowId: number, versionId?: number): Promise<FlowDesign> {
    const { flow, version, service } = await loadVersion(db, tenantId, flowId, versionId);
    const summary = (await findFlow(db, tenantId, flowId))!;
    const params = await versionParams(db, tenantId, flowId, version);
    return {
      flow: summary,
      version: toVersion(version, flow.service_version_id),
      nodes: version.nodes,
      problems: validateDesign(version.nodes),
      diff:
        service && service.id !== version.id
          ? { against: toVersion(service, flow.service_version_id).name, changes: diffDesigns(service.nodes, version.nodes) }
          : null,
      params: params.input,
      states: params.state,
    };
  }

  app.get("/robot/api/flow/:id/design", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const { versionId } = parseInput(FlowDesignQuerySchema, request.query);
    return ok<FlowDesign>(await designOf(app.db, user.tenantId, id, versionId));
  });

  app.put("/robot/api/flow/:id/design", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const { nodes, versionId, updatedAt } = parseInput(FlowDesignSaveSchema, request.body);
    const design = await changeAs(app.db, user, async (trx) => {
      const saved = await saveDesign(trx, user.tenantId, id, nodes, { versionId, updatedAt });
      const problems = validateDesign(nodes);
      return {
        result: await designOf(trx, user.tenantId, id, saved.version.id),
        audit: {
          action: "flow.design",
          target: { type: "flow", id },
          summary: `保存流程「${saved.name}」草稿 ${toVersion(saved.version, null).name}：${nodes.length} 个节点${problems.length ? `，${problems.length} 个待修改的问题` : ""}`,
        },
      };
    });
    return ok<FlowDesign>(design);
  });

  // A draft's input parameters and output states, the whole lists (decision 029).
  app.put("/robot/api/flow/:id/params", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const { versionId, updatedAt, ...params } = parseInput(FlowParamsSaveSchema, request.body);
    const design = await changeAs(app.db, user, async (trx) => {
      const saved = await saveParams(trx, user.tenantId, id, params, { versionId, updatedAt });
      return {
        result: await designOf(trx, user.tenantId, id, saved.version.id),
        audit: {
          action: "flow.params",
          target: { type: "flow", id },
          summary: `保存流程「${saved.name}」草稿 ${toVersion(saved.version, null).name} 的参数：入参 ${params.input.length} 个，输出状态 ${params.state.length} 个`,
          detail: { input: params.input, state: params.state },
        },
      };
    });
    return ok<FlowDesign>(design);
  });

  const transitions: Array<[string, Exclude<FlowAction, "design" | "rollback">]> = [
    ["/robot/api/flow/:id/audit/submit", "submit"],
    ["/robot/api/flow/:id/audit/return", "return"],
    ["/robot/api/flow/:id/publish", "publish"],
    ["/robot/api/flow/:id/market", "market"],
    ["/robot/api/flow/:id/cover", "cover"],
  ];
  for (const [path, named] of transitions) {
    app.post(path, async (request) => {
      const user = requireUser(request);
      const { id } = parseInput(IdParamsSchema, request.params);
      const reason = named === "return" ? parseInput(FlowReturnInputSchema, request.body).reason : undefined;
      const versionId = named === "submit" || named === "return" ? undefined : parseInput(FlowVersionInputSchema, request.body).versionId;
      await changeAs(app.db, user, async (trx) => {
        // Publishing a version already published puts it back in service: the rollback.
        let action: Exclude<FlowAction, "design"> = named;
        if (named === "publish" && versionId !== undefined) {
          const { version } = await loadVersion(trx, user.tenantId, id, versionId);
          if (version.state === FlowState.published || version.state === FlowState.market) action = "rollback";
        }
        const moved = await moveVersion(trx, user.tenantId, id, action, { versionId, reason, actorName: user.realName });
        const states = moved.from === moved.to ? stateLabel(moved.from) : `${stateLabel(moved.from)} → ${stateLabel(moved.to)}`;
        const summary =
          action === "cover"
            ? `流程「${moved.flowName}」${moved.version} 复制为新草稿 ${moved.newVersion}`
            : `流程「${moved.flowName}」${moved.version} ${TRANSITION_WORDS[action]}（${states}）`;
        return {
          result: { ...moved, action },
          audit: {
            action: `flow.${action}`,
            target: { type: "flow", id },
            summary,
            reason: reason ?? null,
            detail: {
              version: moved.version,
              from: moved.from,
              to: moved.to,
              ...(moved.newVersion ? { newVersion: moved.newVersion } : {}),
            },
          },
        };
      });
      return ok(await flowDetail(app.db, user.tenantId, id));
    });
  }

  app.post("/robot/api/flow/nlu/test", async (request) => {
    const user = requireUser(request);
    const input = parseInput(NluTestInputSchema, request.body);
    const { version } = await loadVersion(app.db, user.tenantId, input.flowId, input.versionId);
    const nodes = version.nodes;
    const node = input.nodeKey ? nodes.find((n) => n.key === input.nodeKey) : nodes.find((n) => n.type === "listen");
    if (!node || node.type !== "listen")
      throw new HttpError(400, input.nodeKey ? "所选节点不是收听节点" : "该版本没有收听节点，无法测试意图");
    const heard = recognise(node, input.sentence);
    const next = heard ? heard.next : node.otherNext;
    return ok<NluResult>({
      nodeKey: node.key,
      nodeName: node.name,
      intent: heard?.intent ?? null,
      intentLabel: heard ? labelOf(INTENT_LABELS, heard.intent) : "未识别",
      keyword: heard?.keyword ?? null,
      next,
      nextName: nodes.find((n) => n.key === next)?.name ?? null,
    });
  });

  // The NLU template: every intent and the words it is heard by unless a node gives its own.
  app.get("/robot/api/flow/nlu/template", async (request, reply) => {
    return sendXlsx(reply, "意图模板.xlsx", (sheet) => {
      sheet.addRow(["意图编码", "意图", "关键词（以、分隔）"]).commit();
      for (const intent of INTENT_LABELS)
        sheet.addRow([intent.code, intent.label, (DEFAULT_INTENT_KEYWORDS[intent.code] ?? []).join("、")]).commit();
    });
  });

  app.get("/robot/api/flow/:id/definition/excel", async (request, reply) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const { versionId } = parseInput(FlowDesignQuerySchema, request.query);
    const { version } = await loadVersion(app.db, user.tenantId, id, versionId);
    const flow = (await findFlow(app.db, user.tenantId, id))!;
    const name = toVersion(version, null).name;
    return sendXlsx(reply, `${flow.name}-${name}.xlsx`, (sheet) => {
      sheet.addRow(["节点编号", "类型", "名称", "话术", "去向"]).commit();
      for (const node of version.nodes as FlowNode[]) {
        const exits = exitsOf(node)
          .map((exit) => `${exit.label} → ${exit.next || "（未设置）"}`)
          .join("；");
        sheet.addRow([node.key, labelOf(FLOW_NODE_TYPES, node.type), node.name, node.prompt, exits]).commit();
      }
    });
  });
};
