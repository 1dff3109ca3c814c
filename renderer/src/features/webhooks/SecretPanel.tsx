import { useState } from 'react';
import { messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { CopyButton } from '../../ui/CopyButton';
import { when } from '../../ui/format';
import { revealSecret, rotateSecret } from './webhook-data';

/** A webhook's signing secret: reveal it again, or rotate it (the old one signs on for a grace period). */
export function SecretPanel({ id }: { id: string }) {
  const toast = useApp((s) => s.toast);
  const [secret, setSecret] = useState<string | null>(null);
  const [expires, setExpires] = useState<number | null>(null);
  return (
    <section className="card" aria-labelledby="secret-h">
      <h2 id="secret-h">Signing secret</h2>
      {secret ? (
        <div className="row">
          <code>{secret}</code>
          <CopyButton text={secret} label="Copy secret" />
          <button type="button" className="small" onClick={() => setSecret(null)}>
            Hide
          </button>
        </div>
      ) : (
        <p className="muted">Receivers verify deliveries with it (the standardwebhooks package works unchanged).</p>
      )}
      {expires !== null && <p className="muted">The previous secret also signs until {when(expires)}.</p>}
      <div className="row">
        <button
          type="button"
          onClick={async () => {
            try {
              setSecret(await revealSecret(id));
            } catch (err) {
              toast(messageOf(err), 'error');
            }
          }}
        >
          Reveal secret
        </button>
        <button
          type="button"
          onClick={async () => {
            try {
              const r = await rotateSecret(id);
              setSecret(r.signing_secret);
              setExpires(r.previous_secret_expires_at);
              toast('Secret rotated');
            } catch (err) {
              toast(messageOf(err), 'error');
            }
          }}
        >
          Rotate secret
        </button>
      </div>
    </section>
  );
}
