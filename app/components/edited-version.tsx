import { getInputProps, type FieldMetadata } from "@conform-to/react";

/**
 * The draft version a form was read from, posted with it (its id and updated-at): the platform
 * refuses an edit of a version changed or replaced since (409). After a refusal the refused form's
 * are kept, so saving again stays refused until the page is read again; on a page of several
 * forms, every form keeps them (one form's refusal re-reads the page, which must not make the
 * others post a version they were not read from).
 */
export type EditedVersion = { versionId: string; updatedAt: string };

/** The version the page's forms post: the one read, or the one a refused form of the page posted. */
export function editedVersion(
  version: { id: number; updatedAt: string },
  refusal?: { initialValue?: Record<string, unknown> | null },
): EditedVersion {
  const typed = refusal?.initialValue;
  return {
    versionId: typed?.versionId === undefined ? String(version.id) : String(typed.versionId),
    updatedAt: typed?.updatedAt === undefined ? version.updatedAt : String(typed.updatedAt),
  };
}

/** The form's version fields (conform's: a refused form posts again the version it was read from). */
export function EditedVersionInputs({ versionId, updatedAt }: { versionId: FieldMetadata<unknown>; updatedAt: FieldMetadata<unknown> }) {
  return (
    <>
      <input {...getInputProps(versionId, { type: "hidden" })} />
      <input {...getInputProps(updatedAt, { type: "hidden" })} />
    </>
  );
}
