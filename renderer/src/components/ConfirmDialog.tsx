import { useEffect, useRef } from 'react';

/** A modal confirmation (native `<dialog>`: focus is trapped, Escape cancels). */
export function ConfirmDialog({ title, body, confirmLabel, onConfirm, onCancel }: { title: string; body: string; confirmLabel: string; onConfirm(): void; onCancel(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="confirm-title" onCancel={(e) => (e.preventDefault(), onCancel())}>
      <form method="dialog" onSubmit={(e) => (e.preventDefault(), onConfirm())}>
        <h2 id="confirm-title">{title}</h2>
        <p>{body}</p>
        <div className="row end">
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="danger" autoFocus>
            {confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
