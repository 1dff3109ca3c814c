import { useEffect } from 'react';
import { AccountsPanel } from '../components/AccountsPanel';
import { useApp } from '../store';

/** The schedule the service retries with unless started with `--retry-schedule` (DESIGN section 6). */
const DEFAULT_SCHEDULE = ['5 s', '5 min', '30 min', '2 h', '5 h', '10 h', '10 h'];

/** Settings: what the API exposes about this instance, the retry policy, connected accounts. */
export function SettingsScreen() {
  const { webhooks, loadWebhooks } = useApp();
  useEffect(() => {
    void loadWebhooks();
  }, [loadWebhooks]);
  const custom = webhooks.filter((w) => w.retry_schedule !== null);
  return (
    <div className="settings">
      <header className="page-head">
        <h1 tabIndex={-1}>Settings</h1>
      </header>
      <section className="card" aria-labelledby="svc-h">
        <h2 id="svc-h">Service</h2>
        <dl className="meta-grid">
          <dt>URL</dt>
          <dd>
            <code>{window.location.origin}</code>
          </dd>
          <dt>API</dt>
          <dd>
            <code>{window.location.origin}/v1</code> with <code>Authorization: Bearer &lt;key&gt;</code>
          </dd>
          <dt>Data dir</dt>
          <dd className="muted">
            Shown by <code>spout serve</code> (<code>--data-dir</code>, <code>SPOUT_DATA_DIR</code>, else <code>~/.config/spout</code>); the API does not expose it.
          </dd>
          <dt>API key</dt>
          <dd className="muted">
            This browser is signed in with a session cookie (the key never enters the page). The key is in <code>DATA_DIR/api-key</code>, or set with <code>--api-key</code>/<code>SPOUT_API_KEY</code>. Rotating it from the UI needs an API the service does not have yet.
          </dd>
        </dl>
      </section>
      <section className="card" aria-labelledby="retry-h">
        <h2 id="retry-h">Retry policy</h2>
        <p>
          Default schedule between delivery attempts: <strong>{DEFAULT_SCHEDULE.join(', ')}</strong> (±20% jitter; <code>Retry-After</code> honoured within bounds; a 410 disables the webhook). An instance started with{' '}
          <code>--retry-schedule 1,2,5</code> uses its own, which the API does not report.
        </p>
        {custom.length > 0 && (
          <table className="table" aria-label="Webhooks with their own schedule">
            <thead>
              <tr>
                <th>Webhook</th>
                <th>Seconds between attempts</th>
              </tr>
            </thead>
            <tbody>
              {custom.map((w) => (
                <tr key={w.id}>
                  <td>{w.name}</td>
                  <td>
                    <code>{w.retry_schedule?.join(', ') || 'none (one attempt)'}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <AccountsPanel />
    </div>
  );
}
