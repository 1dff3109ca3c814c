import { useEffect } from 'react';
import { segments, useRoute } from '../../app/router';
import { useApp } from '../../app/store';
import { seconds } from '../../ui/format';
import { Link } from '../../ui/Link';
import { ConnectSettingsView } from '../connect/ConnectSettingsView';
import { McpSettingsView } from '../mcp/McpSettingsView';
import { RemotesPanel } from '../sync/RemotesPanel';
import { AccountsPanel } from './AccountsPanel';
import { ApiKeyPanel } from './ApiKeyPanel';
import { InstanceProfile } from './InstanceProfile';
import { LimitsForm } from './LimitsForm';
import { ServiceSettings } from './ServiceSettings';
import { useSettings } from './settings-data';

/** The Settings views, each at its own address. */
const VIEWS = [
  { id: 'general', label: 'General', path: '/settings' },
  { id: 'mcp', label: 'MCP', path: '/settings/mcp' },
  { id: 'connect', label: 'Connect', path: '/settings/connect' },
] as const;

/** Settings: General (the service, its key, retries, profile, remotes, accounts), MCP (docs/mcp.md) and Connect (docs/connect.md). */
export function SettingsScreen() {
  const path = useRoute((s) => s.path);
  const view = VIEWS.find((v) => v.id === segments(path)[1]) ?? VIEWS[0];
  return (
    <div className="settings">
      <header className="page-head">
        <h1 tabIndex={-1}>Settings</h1>
      </header>
      <nav className="tabs" aria-label="Settings views">
        {VIEWS.map((v) => (
          <Link key={v.id} to={v.path} aria-current={v.id === view.id ? 'page' : undefined} className={v.id === view.id ? 'tab current' : 'tab'}>
            {v.label}
          </Link>
        ))}
      </nav>
      {view.id === 'mcp' ? <McpSettingsView /> : view.id === 'connect' ? <ConnectSettingsView /> : <GeneralSettings />}
    </div>
  );
}

/** How this instance runs (`GET /v1/settings`), its API key, the retry policy, the instance profile, remotes, connected accounts. */
function GeneralSettings() {
  const { webhooks, loadWebhooks } = useApp();
  const { settings, error, reload: load, set } = useSettings();
  useEffect(() => {
    void loadWebhooks();
  }, [loadWebhooks]);
  const custom = webhooks.filter((w) => w.retry_schedule !== null);

  return (
    <>
      {error && (
        <p className="error" role="alert">
          Could not read the settings: {error}
        </p>
      )}
      {!settings ? (
        !error && <p className="empty">Loading…</p>
      ) : (
        <>
          <ServiceSettings settings={settings} />
          <LimitsForm settings={settings} onSaved={set} />
          <ApiKeyPanel settings={settings} onRotated={() => void load()} />
          <section className="card" aria-labelledby="retry-h">
            <h2 id="retry-h">Retry policy</h2>
            <dl className="meta-grid">
              <dt>Between attempts</dt>
              <dd data-testid="retry-schedule">{settings.retry_schedule.length ? settings.retry_schedule.map(seconds).join(', ') : 'no retries (one attempt)'}</dd>
              <dt>Attempt timeout</dt>
              <dd>{seconds(settings.delivery_timeout_seconds)}</dd>
              <dt>Disable after</dt>
              <dd>{settings.disable_after_seconds > 0 ? `${seconds(settings.disable_after_seconds)} of failing attempts` : 'never'}</dd>
            </dl>
            <p className="muted">
              ±20% jitter; <code>Retry-After</code> honoured within bounds; a 410 disables the webhook. Changed under Limits and retries, or with <code>spout serve --retry-schedule 5,300,1800</code>; a webhook may have its own schedule.
            </p>
            {custom.length > 0 && (
              <table className="table" aria-label="Webhooks with their own schedule">
                <thead>
                  <tr>
                    <th>Webhook</th>
                    <th>Between attempts</th>
                  </tr>
                </thead>
                <tbody>
                  {custom.map((w) => (
                    <tr key={w.id}>
                      <td>{w.name}</td>
                      <td>
                        <code>{w.retry_schedule?.map(seconds).join(', ') || 'none (one attempt)'}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </>
      )}
      <InstanceProfile />
      <RemotesPanel />
      <AccountsPanel />
    </>
  );
}
