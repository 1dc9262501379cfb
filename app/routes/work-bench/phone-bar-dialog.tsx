import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { createPortal } from "react-dom";

/**
 * A modal dialog opened from a button of the phone bar (设备, 通话测试): Escape or 关闭 closes it
 * and focus returns to the button. Rendered outside the bar (in the browser only): the bar holds
 * its own controls only. `onOpen` runs each time it opens.
 */
export function PhoneBarDialog({
  label,
  title,
  onOpen,
  children,
}: {
  label: string;
  title: string;
  onOpen?: () => void;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      onOpen?.();
    }
    if (!open && element.open) {
      element.close();
      button.current?.focus();
    }
  }, [open, onOpen]);

  return (
    <>
      <button
        ref={button}
        type="button"
        className="p-button p-button-outlined p-button-sm"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        {label}
      </button>
      {createPortal(
        <dialog
          ref={dialog}
          className="sb-confirm sb-device-dialog"
          aria-labelledby={titleId}
          onCancel={(event) => {
            event.preventDefault();
            setOpen(false);
          }}
        >
          <h2 id={titleId}>{title}</h2>
          {children}
          <div className="sb-inline-forms">
            <button type="button" className="p-button" onClick={() => setOpen(false)}>
              关闭
            </button>
          </div>
        </dialog>,
        document.body,
      )}
    </>
  );
}
