import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { messageOf } from '../api/client';
import { useApp } from '../app/store';

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog (native `<dialog>`, Escape closes). Tab and Shift+Tab cycle inside it, and focus
 * goes back to what had it (the button that opened it) when it closes.
 */
export function Modal({ labelledBy, describedBy, className = 'dialog', onClose, children }: { labelledBy: string; describedBy?: string; className?: string; onClose(): void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    // showModal focuses the first control; the dialog names the one it means.
    dialog?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      dialog?.close();
      // The opener may be gone (a deleted item's button): then focus stays where the app puts it.
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  const trap = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key !== 'Tab' || !ref.current) return;
    const items = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };
  return (
    <dialog ref={ref} className={className} aria-labelledby={labelledBy} aria-describedby={describedBy} onKeyDown={trap} onCancel={(e) => (e.preventDefault(), onClose())}>
      {children}
    </dialog>
  );
}

/** A modal confirmation: Cancel, or the (dangerous) confirming button, which has focus. */
export function ConfirmDialog({ title, body, confirmLabel, onConfirm, onCancel }: { title: string; body: string; confirmLabel: string; onConfirm(): void; onCancel(): void }) {
  return (
    <Modal labelledBy="confirm-title" describedBy="confirm-body" onClose={onCancel}>
      <form method="dialog" onSubmit={(e) => (e.preventDefault(), onConfirm())}>
        <h2 id="confirm-title">{title}</h2>
        <p id="confirm-body">{body}</p>
        <div className="row end">
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="danger" data-autofocus>
            {confirmLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * A button whose action runs only once confirmed (a rotation, say): `busyLabel` while it runs, and
 * a failure said in an error toast. `run` says what it did itself.
 */
export function ConfirmedButton({ label, busyLabel, title, body, confirmLabel, run }: { label: string; busyLabel: string; title: string; body: string; confirmLabel: string; run(): Promise<void> }) {
  const toast = useApp((s) => s.toast);
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const go = async () => {
    setConfirm(false);
    setBusy(true);
    try {
      await run();
    } catch (err) {
      toast(messageOf(err), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" onClick={() => setConfirm(true)} disabled={busy}>
        {busy ? busyLabel : label}
      </button>
      {confirm && <ConfirmDialog title={title} body={body} confirmLabel={confirmLabel} onConfirm={() => void go()} onCancel={() => setConfirm(false)} />}
    </>
  );
}
