import { useState } from 'react';
import type { InstanceSettings } from '../../../../runtime/contract/settings-api';
import { useApp } from '../../app/store';
import { ConfirmedButton } from '../../ui/ConfirmDialog';
import { CopyButton } from '../../ui/CopyButton';
import { rotateApiKey } from './settings-data';

const SOURCES: Record<InstanceSettings['api_key_source'], string> = {
  data_dir: 'kept in DATA_DIR/api-key',
  option: 'given with --api-key',
  env: 'given with SPOUT_API_KEY',
};

/**
 * The API key: where it comes from and its last four characters, and rotation
 * (`POST /v1/settings/api-key/rotate`) after a confirmation. The new key is shown once; this
 * browser stays signed in (the answer renews its session cookie). A key given by a flag or the
 * environment cannot be rotated here: the service's reason for its 409 is shown instead of the
 * button (in the service's words; the rotate endpoint is called only when the user asks).
 */
export function ApiKeyPanel({ settings, onRotated }: { settings: InstanceSettings; onRotated(): void }) {
  const toast = useApp((s) => s.toast);
  const [newKey, setNewKey] = useState<string | null>(null);
  const rotatable = settings.api_key_source === 'data_dir';

  const rotate = async () => {
    setNewKey(await rotateApiKey());
    toast('API key rotated');
    onRotated();
  };

  return (
    <section className="card" aria-labelledby="key-h">
      <h2 id="key-h">API key</h2>
      <dl className="meta-grid">
        <dt>Key</dt>
        <dd>
          <code data-testid="api-key-hint">…{settings.api_key_hint}</code> <span className="muted">(its last four characters)</span>
        </dd>
        <dt>Source</dt>
        <dd data-testid="api-key-source">{SOURCES[settings.api_key_source]}</dd>
      </dl>
      <p className="muted">This browser is signed in with a session cookie; the key itself never enters the page, except once right after a rotation.</p>
      {newKey && (
        <div className="secret-once" role="status" aria-label="New API key">
          <strong>New API key</strong> — shown once. The CLI reads it from the data dir by itself; scripts that send the old key with <code>Authorization: Bearer</code> need this one, and other signed-in browsers need a new sign-in link (<code>spout ui</code>).
          <div className="row">
            <code data-testid="new-api-key">{newKey}</code>
            <CopyButton text={newKey} label="Copy key" />
            <button type="button" className="small" onClick={() => setNewKey(null)}>
              Done
            </button>
          </div>
        </div>
      )}
      {rotatable ? (
        <div className="row">
          <ConfirmedButton
            label="Rotate API key"
            busyLabel="Rotating…"
            title="Rotate the API key?"
            body={`A new key replaces the one ending in ${settings.api_key_hint} in DATA_DIR/api-key. Anything that sends the old key stops working and other browsers are signed out; this browser stays signed in.`}
            confirmLabel="Rotate key"
            run={rotate}
          />
        </div>
      ) : (
        <p className="notice" data-testid="api-key-refusal">
          The API key comes from {settings.api_key_source === 'env' ? 'SPOUT_API_KEY' : '--api-key'}; change it there and restart the service (only a key kept in the data dir is rotated here).
        </p>
      )}
    </section>
  );
}
