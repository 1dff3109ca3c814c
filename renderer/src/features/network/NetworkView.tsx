import { useCallback, useEffect, useState } from 'react';
import type { Cassette, CassetteEntry, NetworkMode } from '../../../../runtime/contract/network-api';
import type { SourceView } from '../../../../runtime/contract/source-api';
import { messageOf } from '../../api/client';
import { useRoute } from '../../app/router';
import { useApp } from '../../app/store';
import { dateTime } from '../../ui/format';
import { networkPath } from '../activity/invocations';
import { updateSource } from '../sources/source-data';
import { CassetteEntryEditor } from './CassetteEntryEditor';
import { NETWORK_MODES as MODES, readCassette, saveCassette } from './network-data';

/** A response written by hand, for a request like `like` (or a placeholder one). */
function handWritten(like: CassetteEntry | undefined): CassetteEntry {
  const empty = { body: '', body_encoding: 'utf8' as const, body_size: 0, body_truncated: false };
  const body = '{}';
  return {
    request: like ? { ...like.request } : { method: 'GET', url: 'https://api.example.com/', headers: {}, ...empty },
    response: { status: 200, headers: { 'content-type': 'application/json' }, ...empty, body, body_size: body.length },
    recorded_at: null,
  };
}

const same = (a: Cassette | null, b: Cassette | null) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A source's network mode and its cassette (issue 17): switch between live, record and replay;
 * review the recorded calls, edit a response or write one by hand (a 429, a 500, an empty page),
 * change how calls are matched, and save. `selected` is the entry in the address (1-based).
 */
export function NetworkView({ source, selected, onSource }: { source: SourceView; selected: string | null; onSource(s: SourceView): void }) {
  const navigate = useRoute((s) => s.navigate);
  const toast = useApp((s) => s.toast);
  const [saved, setSaved] = useState<Cassette | null>(null);
  const [draft, setDraft] = useState<Cassette | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'mode' | 'save' | null>(null);
  // The mode being switched to shows at once; it goes back if the service refuses it.
  const [choosing, setChoosing] = useState<NetworkMode | null>(null);
  const dirty = !same(saved, draft);
  const index = selected !== null && /^\d+$/.test(selected) ? Number(selected) - 1 : null;
  const select = (i: number | null) => navigate(networkPath(source.id, i === null ? null : i + 1), { replace: true, keepFocus: true });

  const load = useCallback(async () => {
    try {
      const c = await readCassette(source.id);
      setSaved(c);
      setDraft(c);
      setError(null);
    } catch (err) {
      setError(messageOf(err));
    }
  }, [source.id]);
  useEffect(() => {
    void load();
  }, [load]);
  // While recording, the list follows the calls being added, unless the user is editing it.
  useEffect(() => {
    if (source.network_mode !== 'record' || dirty) return;
    const timer = setInterval(() => void load(), 3000);
    return () => clearInterval(timer);
  }, [source.network_mode, dirty, load]);

  const setMode = async (network_mode: NetworkMode) => {
    setBusy('mode');
    setChoosing(network_mode);
    try {
      onSource(await updateSource(source.id, { network_mode }));
      toast(`Network mode: ${MODES.find((m) => m.mode === network_mode)?.label ?? network_mode}`);
    } catch (err) {
      toast(messageOf(err), 'error');
    } finally {
      setBusy(null);
      setChoosing(null);
    }
  };
  const save = async () => {
    if (!draft) return;
    setBusy('save');
    try {
      const c = await saveCassette(source.id, draft);
      setSaved(c);
      setDraft(c);
      setError(null);
      toast(`Cassette saved: ${c.entries.length} call${c.entries.length === 1 ? '' : 's'}`);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(null);
    }
  };
  const editEntries = (fn: (entries: CassetteEntry[]) => CassetteEntry[]) => draft && setDraft({ ...draft, entries: fn(draft.entries) });
  const add = () => {
    if (!draft) return;
    editEntries((es) => [...es, handWritten(index !== null ? draft.entries[index] : draft.entries.at(-1))]);
    select(draft.entries.length);
  };
  const remove = (i: number) => {
    editEntries((es) => es.filter((_, j) => j !== i));
    select(null);
  };
  const duplicate = (i: number) => {
    editEntries((es) => [...es.slice(0, i + 1), structuredClone(es[i] as CassetteEntry), ...es.slice(i + 1)]);
    select(i + 1);
  };
  const move = (i: number, by: -1 | 1) => {
    editEntries((es) => {
      const next = [...es];
      [next[i], next[i + by]] = [next[i + by] as CassetteEntry, next[i] as CassetteEntry];
      return next;
    });
    select(i + by);
  };

  const entry = draft && index !== null ? draft.entries[index] : undefined;
  return (
    <div className="network-view">
      <section className="card" aria-labelledby="net-mode-h">
        <h2 id="net-mode-h">Network mode</h2>
        <fieldset className="mode-choices" disabled={busy !== null}>
          <legend className="sr-only">How this source&apos;s outgoing HTTP calls are served</legend>
          {MODES.map((m) => (
            <label key={m.mode} className="mode-choice">
              <input type="radio" name="network-mode" value={m.mode} checked={(choosing ?? source.network_mode) === m.mode} onChange={() => void setMode(m.mode)} />
              <span>
                <strong>{m.label}</strong> <span className="muted">{m.help}</span>
              </span>
            </label>
          ))}
        </fieldset>
      </section>

      <section className="card" aria-labelledby="cassette-h">
        <div className="row">
          <h2 id="cassette-h" className="grow">
            Cassette
          </h2>
          {dirty && <span className="badge status-pending">unsaved changes</span>}
          <button type="button" onClick={() => void load()} disabled={busy !== null}>
            {dirty ? 'Discard changes' : 'Reload'}
          </button>
          <button type="button" className="primary" onClick={() => void save()} disabled={!dirty || busy !== null}>
            {busy === 'save' ? 'Saving…' : 'Save cassette'}
          </button>
        </div>
        <p className="muted small-note">
          The calls replay answers from, credentials masked. <code>spout cassette export {source.id}</code> writes it beside the component as <code>NAME.cassette.json</code>.
        </p>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {draft && (
          <>
            <fieldset className="matching">
              <legend>Matching</legend>
              <div className="row wrap">
                <label htmlFor="match-ignore">Ignored query parameters</label>
                <input
                  id="match-ignore"
                  className="grow mono"
                  value={draft.matching.ignore_query.join(', ')}
                  onChange={(e) =>
                    setDraft({
                      ...draft,
                      matching: {
                        ...draft.matching,
                        ignore_query: e.target.value
                          .split(',')
                          .map((s) => s.trim())
                          .filter(Boolean),
                      },
                    })
                  }
                />
              </div>
              <div className="row wrap">
                <label>
                  <input type="checkbox" checked={draft.matching.body} onChange={(e) => setDraft({ ...draft, matching: { ...draft.matching, body: e.target.checked } })} /> Compare request bodies
                </label>
                <label htmlFor="match-order">Order</label>
                <select id="match-order" value={draft.matching.order} onChange={(e) => setDraft({ ...draft, matching: { ...draft.matching, order: e.target.value === 'content' ? 'content' : 'sequence' } })}>
                  <option value="sequence">in sequence (a request made again gets its next recording)</option>
                  <option value="content">by content (any recording of the request)</option>
                </select>
              </div>
            </fieldset>

            {draft.entries.length === 0 ? (
              <p className="empty" data-testid="cassette-empty">
                Nothing recorded yet. Choose Record and run the source, or write a response by hand.
              </p>
            ) : (
              <ol className="plain cassette-entries" aria-label="Recorded calls">
                {draft.entries.map((e, i) => (
                  <li key={i} className={i === index ? 'cassette-entry selected' : 'cassette-entry'}>
                    <button type="button" className="entry-pick" aria-pressed={i === index} onClick={() => select(i === index ? null : i)}>
                      <span className="muted">{i + 1}.</span>{' '}
                      <span className="mono">
                        {e.request.method} {e.request.url}
                      </span>{' '}
                      <span className={e.response.status < 400 ? 'badge active' : 'badge failed'}>{e.response.status}</span> <span className="muted">{e.recorded_at === null ? 'written by hand' : `recorded ${dateTime(e.recorded_at)}`}</span>
                    </button>
                  </li>
                ))}
              </ol>
            )}
            <button type="button" onClick={add}>
              Add a response by hand
            </button>
            {entry && index !== null && (
              <CassetteEntryEditor
                key={index}
                number={index + 1}
                entry={entry}
                last={index === draft.entries.length - 1}
                onChange={(next) => editEntries((es) => es.map((e, j) => (j === index ? next : e)))}
                onDuplicate={() => duplicate(index)}
                onMove={(by) => move(index, by)}
                onRemove={() => remove(index)}
              />
            )}
          </>
        )}
      </section>
    </div>
  );
}
