/**
 * The draft version a form was read from, posted with it (its id and updated-at): the platform
 * refuses an edit of a version changed or replaced since (409). After a refusal the refused form's
 * are kept, so saving again stays refused until the page is read again.
 */
export type EditedVersion = { versionId: number; updatedAt: string };

export function editedVersion(
  version: { id: number; updatedAt: string },
  refusal: { initialValue?: Record<string, unknown> | null } | undefined,
): EditedVersion {
  const typed = refusal?.initialValue;
  return {
    versionId: typed?.versionId === undefined ? version.id : Number(typed.versionId),
    updatedAt: typed?.updatedAt === undefined ? version.updatedAt : String(typed.updatedAt),
  };
}

export function EditedVersionInputs({ edited }: { edited: EditedVersion }) {
  return (
    <>
      <input type="hidden" name="versionId" value={edited.versionId} />
      <input type="hidden" name="updatedAt" value={edited.updatedAt} />
    </>
  );
}
