import { useEffect, useId, useRef, type ReactNode } from "react";

/**
 * A confirmation inside a hydrated island (the no-JS screens use ConfirmStep): a modal <dialog>,
 * so the browser keeps focus inside it, Escape cancels, and focus returns to where it was.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = "返回",
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  // Several dialogs may share a page: each names itself by its own ids.
  const id = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      className="sb-confirm sb-confirm-dialog"
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onCancel={(event) => {
        // Escape: the parent decides (and closes the dialog through `open`).
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <div id={`${id}-body`}>{children}</div>
      <div className="sb-inline-forms">
        <button type="button" className="p-button p-button-danger" onClick={onConfirm} autoFocus>
          {confirmLabel}
        </button>
        <button type="button" className="p-button p-button-text" onClick={onCancel}>
          {cancelLabel}
        </button>
      </div>
    </dialog>
  );
}
