import { Modal } from '../../ui/ConfirmDialog';

/** The keyboard shortcuts, as `?` lists them. */
export const SHORTCUTS: ReadonlyArray<[keys: string, what: string]> = [
  ['Ctrl+K / ⌘K', 'open the command palette: go to a source, action, workflow, webhook, run or event; deploy, run now, replay, new source'],
  ['/', "focus the current screen's search box"],
  ['j / k', 'open the next / previous item of the list'],
  ['?', 'list these shortcuts'],
  ['Esc', 'close a dialog'],
];

/** The `?` dialog: every shortcut and what it does (single keys do nothing while typing in a field or the code editor). */
export function ShortcutsDialog({ onClose }: { onClose(): void }) {
  return (
    <Modal labelledBy="shortcuts-title" describedBy="shortcuts-note" onClose={onClose}>
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <dl className="meta-grid">
        {SHORTCUTS.map(([keys, what]) => (
          <div key={keys} style={{ display: 'contents' }}>
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <p id="shortcuts-note" className="muted small-note">
        Single keys do nothing while you type in a field or the code editor.
      </p>
      <div className="row end">
        <button type="button" onClick={onClose} data-autofocus>
          Close
        </button>
      </div>
    </Modal>
  );
}
