import { ConfirmDialog } from '../../ui/ConfirmDialog';

/** The confirmation before an editor drops its unsaved changes; `body` says what it goes back to. */
export function DiscardDialog({ body, onDiscard, onClose }: { body: string; onDiscard(): void; onClose(): void }) {
  return (
    <ConfirmDialog
      title="Discard the unsaved changes?"
      body={body}
      confirmLabel="Discard changes"
      onConfirm={() => {
        onClose();
        onDiscard();
      }}
      onCancel={onClose}
    />
  );
}
