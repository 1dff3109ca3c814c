import { type FormEvent, useState } from 'react';
import type { RemoteCheck } from '../../../../runtime/contract/sync-api';
import { ApiError, messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { Link } from '../../ui/Link';
import { isLoopbackHost } from '../../ui/loopback';
import { TableHead } from '../../ui/TableHead';
import { addRemote, removeRemote, testRemote, useRemotes } from './sync-data';

/** Whether a URL is plain http to another machine (the service refuses those; said before sending). */
function insecure(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' && !isLoopbackHost(u.hostname);
  } catch {
    return false;
  }
}

/**
 * Settings → Remote instances: the profiles `spout login` saves (another Spout, or Pipedream), which
 * the Sync screen pushes to and pulls from. Add (the key is checked first), test, remove.
 */
export function RemotesPanel() {
  const { toast } = useApp();
  const { remotes, error, reload } = useRemotes();
  const [kind, setKind] = useState<'spout' | 'pipedream'>('spout');
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [key, setKey] = useState('');
  const [org, setOrg] = useState('');
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const fieldProblem = (field: string) =>
    problems[field] ? (
      <p className="field-error" role="alert" id={`remote-${field}-error`}>
        {problems[field]}
      </p>
    ) : null;
  const [tests, setTests] = useState<Record<string, RemoteCheck | 'testing'>>({});

  const load = () => void reload();

  const add = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblems({});
    try {
      await addRemote({ name, kind, api_key: key, ...(url ? { api_url: url } : {}), ...(kind === 'pipedream' && org ? { org_id: org } : {}) });
      toast(`Remote "${name}" saved`);
      setName('');
      setUrl('');
      setKey('');
      setOrg('');
      load();
    } catch (err) {
      // Said at the field to fix, and kept until the form changes (a toast went by and named the wrong screen).
      const byField: Record<string, string> = {};
      if (err instanceof ApiError) for (const p of err.errors) byField[p.path] ??= p.message;
      setProblems(Object.keys(byField).length ? byField : { '': messageOf(err, { name: 'Name', api_url: 'URL', api_key: 'API key', org_id: 'Workspace' }) });
    } finally {
      setBusy(false);
    }
  };
  const test = async (remote: string) => {
    setTests((t) => ({ ...t, [remote]: 'testing' }));
    try {
      const result = await testRemote(remote);
      setTests((t) => ({ ...t, [remote]: result }));
    } catch (err) {
      setTests((t) => ({ ...t, [remote]: { ok: false, detail: messageOf(err) } }));
    }
  };
  const remove = async (remote: string) => {
    try {
      await removeRemote(remote);
      toast(`Remote "${remote}" removed`);
      load();
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  };

  return (
    <section className="card" aria-labelledby="remotes-h" id="remotes">
      <h2 id="remotes-h">Remote instances</h2>
      <p className="muted">
        Other Spout instances and Pipedream, to push work to and pull it from on the <Link to="/sync">Sync</Link> screen. These are the profiles <code>spout login -p NAME</code> saves, shared with the CLI.
      </p>
      {error && (
        <p className="error" role="alert">
          Could not read the remote instances: {error}
        </p>
      )}
      {remotes === null ? (
        !error && <p className="empty">Loading…</p>
      ) : remotes.length === 0 ? (
        <p className="empty">No remote instances yet.</p>
      ) : (
        <table className="table" aria-label="Remote instances" data-testid="remotes">
          <TableHead columns={['Name', 'Kind', 'Address', 'Key', 'Connection']} />
          <tbody>
            {remotes.map((r) => {
              const t = tests[r.name];
              return (
                <tr key={r.name}>
                  <td>
                    <strong>{r.name}</strong>
                  </td>
                  <td>{r.kind === 'pipedream' ? `Pipedream${r.org_id ? ` (${r.org_id})` : ''}` : 'Spout'}</td>
                  <td>
                    <code>{r.url}</code>
                  </td>
                  <td>…{r.api_key_hint}</td>
                  <td data-testid={`remote-test-${r.name}`} role="status">
                    {t === undefined ? '' : t === 'testing' ? 'Testing…' : <span className={t.ok ? 'ok-text' : 'error'}>{t.ok ? `✓ ${t.detail}` : `✗ ${t.detail}`}</span>}
                  </td>
                  <td className="actions">
                    <button type="button" className="small" onClick={() => void test(r.name)} aria-label={`Test connection to ${r.name}`}>
                      Test
                    </button>
                    <button type="button" className="small" onClick={() => void remove(r.name)} aria-label={`Remove ${r.name}`}>
                      Remove
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <form className="form" onSubmit={(e) => void add(e)} aria-label="Add a remote instance">
        <fieldset className="row wrap">
          <legend>Kind</legend>
          <label>
            <input type="radio" name="remote-kind" checked={kind === 'spout'} onChange={() => setKind('spout')} /> Spout
          </label>
          <label>
            <input type="radio" name="remote-kind" checked={kind === 'pipedream'} onChange={() => setKind('pipedream')} /> Pipedream
          </label>
        </fieldset>
        <div className="row wrap">
          <label htmlFor="remote-name">Name</label>
          <input id="remote-name" required placeholder="team" value={name} onChange={(e) => setName(e.target.value)} />
          <label htmlFor="remote-url">URL</label>
          <input id="remote-url" type="url" required={kind === 'spout'} placeholder={kind === 'spout' ? 'https://spout.example.com' : 'https://api.pipedream.com'} value={url} onChange={(e) => setUrl(e.target.value)} />
        </div>
        {insecure(url) && (
          <p className="error" role="alert">
            Plain http to another machine is refused: its API key and any secrets would cross the network in clear. Use https, or an SSH tunnel to 127.0.0.1.
          </p>
        )}
        <div className="row wrap">
          <label htmlFor="remote-key">API key</label>
          <input id="remote-key" type="password" autoComplete="off" required value={key} aria-invalid={problems.api_key ? true : undefined} aria-describedby={problems.api_key ? 'remote-api_key-error' : undefined} onChange={(e) => setKey(e.target.value)} />
          {kind === 'pipedream' && (
            <>
              <label htmlFor="remote-org">Workspace</label>
              <input id="remote-org" placeholder="o_…" value={org} onChange={(e) => setOrg(e.target.value)} />
            </>
          )}
        </div>
        {fieldProblem('api_key')}
        {fieldProblem('api_url')}
        {fieldProblem('name')}
        {Object.entries(problems)
          .filter(([field]) => !['api_key', 'api_url', 'name'].includes(field))
          .map(([field, message]) => (
            <p key={field} className="field-error" role="alert">
              {field ? `${field}: ` : ''}
              {message}
            </p>
          ))}
        <div className="row end">
          <button type="submit" className="primary" disabled={busy || insecure(url)}>
            {busy ? 'Checking the key…' : 'Add remote'}
          </button>
        </div>
      </form>
    </section>
  );
}
