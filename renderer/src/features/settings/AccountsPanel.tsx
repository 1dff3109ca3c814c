import { type FormEvent, useEffect, useState } from 'react';
import { messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { createAccount, deleteAccount } from './settings-data';

/**
 * Connected accounts (`apn_…`) whose credentials become `$auth` of app props. From a prop form it
 * opens for one app (`forApp`) and hands the new account back (`onConnected`).
 */
export function AccountsPanel({ forApp, onConnected }: { forApp?: string; onConnected?(id: string): void } = {}) {
  const { accounts, loadAccounts, toast } = useApp();
  const [app, setApp] = useState(forApp ?? '');
  const [name, setName] = useState('');
  const [creds, setCreds] = useState('api_key=');
  useEffect(() => {
    void loadAccounts();
  }, [loadAccounts]);
  const create = async (e: FormEvent) => {
    e.preventDefault();
    const credentials: Record<string, string> = {};
    for (const line of creds.split('\n')) {
      const at = line.indexOf('=');
      if (at > 0) credentials[line.slice(0, at).trim()] = line.slice(at + 1).trim();
    }
    try {
      const created = await createAccount({ app, name: name || app, credentials });
      setApp(forApp ?? '');
      setName('');
      setCreds('api_key=');
      toast('Account connected');
      onConnected?.(created.id);
    } catch (err) {
      toast(messageOf(err, { app: 'App', name: 'Name', credentials: 'Credentials' }), 'error');
    }
  };
  return (
    <section className="card" aria-labelledby="accounts-h" id="accounts">
      <h2 id="accounts-h">Connected accounts</h2>
      {accounts.length === 0 ? (
        <p className="empty">No accounts yet.</p>
      ) : (
        <ul className="plain">
          {accounts.map((a) => (
            <li key={a.id} className="row">
              <span>
                <strong>{a.name}</strong> · {a.app} · <code>{a.id}</code>
                {a.external_user_id && (
                  <>
                    {' · '}
                    <span data-testid="account-external-user">
                      Connect user <code>{a.external_user_id}</code>
                    </span>
                  </>
                )}{' '}
                · {Object.keys(a.credentials).join(', ')}
              </span>
              <button
                type="button"
                className="small"
                onClick={async () => {
                  try {
                    await deleteAccount(a.id);
                  } catch (err) {
                    toast(messageOf(err), 'error');
                  }
                }}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="form" onSubmit={(e) => void create(e)} aria-label="Connect an account">
        <div className="row wrap">
          <label htmlFor="acct-app">App</label>
          <input id="acct-app" required placeholder="github" value={app} onChange={(e) => setApp(e.target.value)} />
          <label htmlFor="acct-name">Name</label>
          <input id="acct-name" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <label htmlFor="acct-creds">Credentials (name=value per line; stored encrypted, never shown again)</label>
        <textarea id="acct-creds" className="mono" rows={3} value={creds} onChange={(e) => setCreds(e.target.value)} />
        <div className="row end">
          <button type="submit" className="primary">
            Connect account
          </button>
        </div>
      </form>
    </section>
  );
}
