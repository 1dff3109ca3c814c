import { useState } from 'react';
import type { AccountView } from '../../../../runtime/contract/component-api';
import { useApp } from '../../app/store';
import { Modal } from '../../ui/ConfirmDialog';
import { AccountsPanel } from './AccountsPanel';

/** An account as a choice names it: its name and id, and the Connect user it belongs to. */
export const accountLabel = (a: AccountView) => `${a.name} (${a.id}${a.external_user_id ? `, Connect user ${a.external_user_id}` : ''})`;

/**
 * A connected account of one app (`app`; any app without it), and "Connect an account", which
 * opens the accounts form in a dialog for that app: the new account is chosen and the rest of the
 * screen stays as it was.
 */
export function AccountPicker({
  id,
  app,
  value,
  none,
  disabled,
  describedBy,
  required,
  onChange,
}: {
  id: string;
  app: string | undefined;
  value: string;
  /** The first choice's text (no account chosen). */
  none: (count: number) => string;
  disabled?: boolean;
  describedBy?: string;
  required?: boolean;
  onChange(accountId: string): void;
}) {
  const accounts = useApp((s) => s.accounts);
  const [connecting, setConnecting] = useState(false);
  const mine = accounts.filter((a) => !app || a.app === app);
  return (
    <div className="row">
      <select id={id} aria-describedby={describedBy} aria-required={required || undefined} disabled={disabled} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{none(mine.length)}</option>
        {mine.map((a) => (
          <option key={a.id} value={a.id}>
            {accountLabel(a)}
          </option>
        ))}
      </select>
      {/* A dialog, not a page: the form stays as filled in, and the new account is chosen. */}
      <button type="button" className="small" onClick={() => setConnecting(true)}>
        Connect an account
      </button>
      {connecting && (
        <Modal labelledBy="accounts-h" className="dialog wide" onClose={() => setConnecting(false)}>
          <AccountsPanel
            forApp={app}
            onConnected={(accountId) => {
              setConnecting(false);
              onChange(accountId);
            }}
          />
          <div className="row end">
            <button type="button" onClick={() => setConnecting(false)}>
              Close
            </button>
          </div>
        </Modal>
      )}
    </div>
  );
}
