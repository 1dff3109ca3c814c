import { type FormEvent, useEffect, useState } from 'react';
import { messageOf } from '../../api/client';
import type { ProfileView, SpoutDesktop } from '../../app/desktop';
import { LoadState } from '../../ui/LoadState';

/** An IPC error without Electron's "Error invoking remote method 'x': Error: " prefix. */
const ipcMessage = (err: unknown) => messageOf(err).replace(/^Error invoking remote method '[^']+': (?:\w*Error: )?/, '');

/** Whether a URL is http(s); its origin then, else null. */
function originOf(text: string): string | null {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$/;

/**
 * The desktop app's instance profile (through the preload bridge): this app's own service, or a
 * remote instance by URL and API key. Saving loads the chosen instance in the window. Shown by a
 * remote instance, the form only offers the way back to the local one.
 */
export function ProfileForm({ bridge }: { bridge: SpoutDesktop }) {
  const [saved, setSaved] = useState<ProfileView | null>(null);
  const [mode, setMode] = useState<ProfileView['mode']>('local');
  const [url, setUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    bridge.getProfile().then(
      (p) => {
        setSaved(p);
        setMode(p.mode);
        if (p.mode === 'remote') setUrl(p.url);
      },
      (err: unknown) => setError(ipcMessage(err)),
    );
  }, [bridge]);

  if (!saved) {
    return (
      <section className="card" aria-labelledby="profile-h">
        <h2 id="profile-h">Instance profile</h2>
        <LoadState error={error} />
      </section>
    );
  }

  const save = async (next: Parameters<SpoutDesktop['setProfile']>[0], done: string) => {
    setBusy(true);
    setError(null);
    try {
      setSaved(await bridge.setProfile(next));
      setApiKey('');
      setStatus(done);
    } catch (err) {
      setError(ipcMessage(err));
    } finally {
      setBusy(false);
    }
  };

  // This page is the remote instance's: the window can only be sent back to the local one from here.
  if (saved.mode === 'remote' && window.location.origin === saved.url) {
    return (
      <section className="card" aria-labelledby="profile-h">
        <h2 id="profile-h">Instance profile</h2>
        <p>
          This window shows the remote instance <code>{saved.url}</code>. Other remote instances are chosen from the local instance&apos;s Settings.
        </p>
        <div className="row">
          <button type="button" disabled={busy} onClick={() => void save({ mode: 'local' }, 'Saved: loading the local instance…')}>
            Use the local instance
          </button>
        </div>
        {status && <p role="status">{status}</p>}
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
      </section>
    );
  }

  const origin = originOf(url);
  const keyKept = saved.mode === 'remote' && origin === saved.url;
  const plainHttp = origin?.startsWith('http:') === true && !LOOPBACK.test(new URL(origin).hostname);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (mode === 'local') return void save({ mode: 'local' }, 'Saved: the window shows this app’s own instance.');
    if (!origin) return setError('Give the instance’s address, such as https://spout.example.com:7620.');
    if (!apiKey.trim() && !keyKept) return setError('Give the instance’s API key.');
    void save({ mode: 'remote', url: origin, apiKey: apiKey.trim() }, `Saved: loading ${origin}…`);
  };

  return (
    <form className="card form" onSubmit={submit} aria-labelledby="profile-h" noValidate>
      <h2 id="profile-h">Instance profile</h2>
      {saved.mode === 'remote' && !status && (
        <p className="notice">
          The saved profile is the remote instance <code>{saved.url}</code>, but the window shows this app&apos;s own instance: the remote one could not be opened.
        </p>
      )}
      <fieldset className="radio-row">
        <legend>The window shows</legend>
        <label className="radio">
          <input type="radio" name="profile-mode" value="local" checked={mode === 'local'} onChange={() => setMode('local')} />
          This app&apos;s own instance
        </label>
        <label className="radio">
          <input type="radio" name="profile-mode" value="remote" checked={mode === 'remote'} onChange={() => setMode('remote')} />A remote instance
        </label>
      </fieldset>
      {mode === 'remote' && (
        <>
          <div className="field narrow">
            <label htmlFor="profile-url">Instance URL</label>
            <input id="profile-url" type="url" className="mono" placeholder="https://spout.example.com:7620" value={url} onChange={(e) => (setUrl(e.target.value), setError(null))} aria-describedby="profile-url-desc" />
            <span id="profile-url-desc" className="muted small-note">
              The address <code>spout serve</code> printed there (<code>Spout listening on …</code>).
            </span>
            {plainHttp && (
              <p className="alert alert-warning" role="note">
                Over <code>http://</code> the key and everything else travel unencrypted: prefer <code>https://</code> (a TLS proxy) for an instance on another machine.
              </p>
            )}
          </div>
          <div className="field narrow">
            <label htmlFor="profile-key">API key</label>
            <input id="profile-key" type="password" className="mono" autoComplete="off" placeholder={keyKept ? 'saved — leave empty to keep it' : 'spk_…'} value={apiKey} onChange={(e) => (setApiKey(e.target.value), setError(null))} aria-describedby="profile-key-desc" />
            <span id="profile-key-desc" className="muted small-note">
              Its <code>DATA_DIR/api-key</code>. Kept by this app sealed with the system keychain (without one, remote profiles cannot be saved); the page never reads it back.
            </span>
          </div>
        </>
      )}
      {status && <p role="status">{status}</p>}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="row end">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save profile'}
        </button>
      </div>
    </form>
  );
}
