import type { InstanceSettings } from '../../../../runtime/contract/settings-api';
import { CopyEntry } from '../../ui/CopyEntry';

/** How the service runs (`GET /v1/settings`): its address, data dir, limits, and where packages and components come from. */
export function ServiceSettings({ settings }: { settings: InstanceSettings }) {
  return (
    <section className="card" aria-labelledby="svc-h">
      <h2 id="svc-h">Service</h2>
      <dl className="meta-grid">
        <dt>URL</dt>
        <dd>
          <code data-testid="service-url">{settings.url}</code>
        </dd>
        <dt>API</dt>
        <dd>
          <code>{settings.url}/v1</code> with <code>Authorization: Bearer &lt;key&gt;</code>
        </dd>
        <CopyEntry term="Data dir" value={settings.data_dir} copyLabel="Copy path" testId="data-dir" />
        <dt>Event retention</dt>
        <dd>latest {settings.event_retention.toLocaleString('en')} events per source</dd>
        <dt>Run timeout</dt>
        <dd>{settings.run_timeout_seconds} s per run of component code</dd>
        <dt>Component hosts</dt>
        <dd data-testid="host-parking">
          a source&apos;s host stops after {settings.host_idle_seconds} s idle and starts again with its next work; at most {settings.warm_hosts} run at once
        </dd>
        <dt>npm registry</dt>
        <dd>{settings.npm_registry ? <code>{settings.npm_registry}</code> : <span className="muted">npm&apos;s own configuration</span>}</dd>
        <dt>Registry folders</dt>
        <dd>
          {settings.registry_dirs.length === 0 ? (
            <span className="muted">the bundled components only</span>
          ) : (
            <ul className="plain" aria-label="Registry folders">
              {settings.registry_dirs.map((d) => (
                <li key={d}>
                  <code>{d}</code>
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      <p className="muted small-note">
        Set when the service starts: <code>spout serve --help</code> lists the options (<code>--data-dir</code>, <code>--registry</code>, …); retries, retention, the run timeout and host parking also change under Limits and retries.
      </p>
    </section>
  );
}
