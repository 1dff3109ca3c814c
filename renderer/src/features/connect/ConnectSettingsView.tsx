import { useEffect, useState } from 'react';
import type { AccountView } from '../../../../runtime/contract/component-api';
import type { ConnectCredentialsView } from '../../../../runtime/contract/connect-api';
import type { SourceView } from '../../../../runtime/contract/source-api';
import { useApp } from '../../app/store';
import { ConfirmedButton } from '../../ui/ConfirmDialog';
import { CopyButton } from '../../ui/CopyButton';
import { CopyEntry } from '../../ui/CopyEntry';
import { ErrorText } from '../../ui/ErrorText';
import { Link } from '../../ui/Link';
import { envLines, rotateConnectCredentials, setConnectLocalTargets, useConnectCredentials } from './connect-data';

/** A secret as shown until revealed: its last four characters only. */
const masked = (secret: string) => `••••••••${secret.slice(-4)}`;

/** The project's credentials: copyable, the secret masked until shown, and rotation after a confirmation. */
function Credentials({ credentials, onRotated }: { credentials: ConnectCredentialsView; onRotated(c: ConnectCredentialsView): void }) {
  const toast = useApp((s) => s.toast);
  const [shown, setShown] = useState(false);
  const [rotated, setRotated] = useState(false);
  const secret = credentials.client_secret;

  const rotate = async () => {
    onRotated(await rotateConnectCredentials());
    setRotated(true);
    toast('Connect client credentials rotated');
  };

  return (
    <section className="card" aria-labelledby="connect-creds-h">
      <h2 id="connect-creds-h">Project credentials</h2>
      <dl className="meta-grid">
        <CopyEntry term="Base URL" value={credentials.base_url} copyLabel="Copy base URL" testId="connect-base-url" />
        <CopyEntry term="Project id" value={credentials.project_id} copyLabel="Copy project id" testId="connect-project-id" />
        <dt>Environment</dt>
        <dd>
          <code>{credentials.environment}</code>{' '}
          <span className="muted">
            (send <code>x-pd-environment: production</code> for the other one)
          </span>
        </dd>
        <CopyEntry term="Client id" value={credentials.client_id} copyLabel="Copy client id" testId="connect-client-id" />
        <CopyEntry term="Client secret" value={secret} shown={shown ? secret : masked(secret)} copyLabel="Copy secret" testId="connect-client-secret">
          {!shown && <span className="sr-only">(hidden; its last four characters are shown)</span>}
          <button type="button" className="small" aria-pressed={shown} onClick={() => setShown(!shown)}>
            Show secret
          </button>
        </CopyEntry>
      </dl>
      {rotated && (
        <p className="secret-once" role="status" aria-label="New client credentials">
          New client id and secret: servers that sign in with the old ones get 401 from <code>/v1/oauth/token</code> until they use these (<code>PIPEDREAM_CLIENT_ID</code>, <code>PIPEDREAM_CLIENT_SECRET</code>).
        </p>
      )}
      <h3 id="connect-env-h">.env</h3>
      <p className="muted small-note">
        The variables <code>new PipedreamClient()</code> reads, for your server&apos;s <code>.env</code>. From a terminal: <code>eval &quot;$(spout connect credentials --env)&quot;</code>.
      </p>
      <pre className="snippet-text" tabIndex={0} data-testid="connect-env">
        {envLines(credentials, shown ? secret : masked(secret))}
      </pre>
      <div className="row">
        <CopyButton text={envLines(credentials)} label="Copy .env lines" />
        <span className="grow" />
        <ConfirmedButton
          label="Rotate client secret"
          busyLabel="Rotating…"
          title="Rotate the Connect client secret?"
          body={`A new client id and secret replace ${credentials.client_id} and the secret ending in ${secret.slice(-4)}. Servers that sign in with the old ones are refused until they use the new ones; access tokens already handed out keep working until they expire (an hour).`}
          confirmLabel="Rotate secret"
          run={rotate}
        />
      </div>
    </section>
  );
}

/** Whether end users may reach this machine: their trigger webhooks, account URLs and proxy calls (docs/security.md). */
function LocalTargets({ credentials, onChanged }: { credentials: ConnectCredentialsView; onChanged(c: ConnectCredentialsView): void }) {
  const [error, setError] = useState<string | null>(null);
  const change = async (allow: boolean) => {
    setError(null);
    try {
      onChanged(await setConnectLocalTargets(allow));
    } catch (err) {
      setError(`Could not change it: ${(err as Error).message}`);
    }
  };
  return (
    <section className="card" aria-labelledby="connect-local-h">
      <h2 id="connect-local-h">End users and this machine</h2>
      <label>
        <input type="checkbox" checked={credentials.allow_local_targets} onChange={(e) => void change(e.target.checked)} /> Let end users reach this machine
      </label>
      <p className="muted small-note">
        Off: a Connect token&apos;s trigger webhooks and any account&apos;s URLs may not point at localhost, this machine&apos;s names or link-local addresses, and the proxy does not call them. Turn it on to develop against a mock API or receiver on this machine. Nothing may point at Spout itself (a
        delivery loop). <code>allow_local_targets</code> in the API.
      </p>
      <ErrorText text={error} />
    </section>
  );
}

/** Connect's end users as Spout holds them: each external user's deployed triggers (sources) and accounts. */
function ExternalUsers() {
  const { sources, accounts, loadAccounts } = useApp();
  useEffect(() => {
    void loadAccounts();
  }, [loadAccounts]);
  const users = new Map<string, { triggers: SourceView[]; accounts: AccountView[] }>();
  const of = (user: string) => {
    let held = users.get(user);
    if (!held) users.set(user, (held = { triggers: [], accounts: [] }));
    return held;
  };
  for (const s of sources) if (s.external_user_id) of(s.external_user_id).triggers.push(s);
  for (const a of accounts) if (a.external_user_id) of(a.external_user_id).accounts.push(a);
  return (
    <section className="card" aria-labelledby="connect-users-h">
      <h2 id="connect-users-h">External users</h2>
      {users.size === 0 ? (
        <p className="empty">No external users yet: they appear when your app connects an account or deploys a trigger for one.</p>
      ) : (
        <table className="table" aria-labelledby="connect-users-h">
          <thead>
            <tr>
              <th scope="col">External user</th>
              <th scope="col">Deployed triggers</th>
              <th scope="col">Accounts</th>
            </tr>
          </thead>
          <tbody>
            {[...users]
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([user, held]) => (
                <tr key={user}>
                  <td>
                    <code>{user}</code>
                  </td>
                  <td>
                    {held.triggers.length === 0
                      ? '—'
                      : held.triggers.map((s, i) => (
                          <span key={s.id}>
                            {i > 0 && ', '}
                            <Link to={`/sources/${encodeURIComponent(s.id)}`}>{s.name}</Link>
                          </span>
                        ))}
                  </td>
                  <td>{held.accounts.length === 0 ? '—' : held.accounts.map((a) => `${a.name} (${a.app})`).join(', ')}</td>
                </tr>
              ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Settings → Connect (docs/connect.md): the local Pipedream Connect project's credentials and its external users. */
export function ConnectSettingsView() {
  const { credentials, error, set } = useConnectCredentials();
  return (
    <>
      <section className="card" aria-labelledby="connect-h">
        <h2 id="connect-h">Pipedream Connect</h2>
        <p>
          Spout is also a local Pipedream Connect API. Point <code>@pipedream/sdk</code> on your server (and <code>@pipedream/connect-react</code> in your pages) at it with these credentials: components, action runs, deployed triggers and your end users&apos; accounts work offline, with no code
          change beyond the base URL.
        </p>
        <p className="muted small-note">
          How, with a runnable example and what maps: <code>docs/connect.md</code> (“Develop a Pipedream Connect integration offline”). The /v1 API key works for the Connect API too.
        </p>
        <ErrorText text={error && `Could not read the Connect credentials: ${error}`} />
      </section>
      {credentials ? <Credentials credentials={credentials} onRotated={set} /> : !error && <p className="empty">Loading…</p>}
      {credentials && <LocalTargets credentials={credentials} onChanged={set} />}
      <ExternalUsers />
    </>
  );
}
