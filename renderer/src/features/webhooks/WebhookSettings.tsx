import { useEffect, useState } from 'react';
import type { VersionFields } from '../../../../runtime/contract/change-api';
import type { WebhookUpdate, WebhookView } from '../../../../runtime/contract/webhook-api';
import { ApiError } from '../../api/client';
import { parseSchedule } from '../../ui/format';
import { VersionNotice } from '../../ui/VersionNotice';

/**
 * Edits a webhook's URL, name, description and retry schedule. A save names the version the form
 * started from; a version saved elsewhere meanwhile (the list is read every 5 s) is said, and a
 * save refused for it (409) offers to reload it or to overwrite it.
 */
export function WebhookSettings({ wh, onSave }: { wh: WebhookView; onSave(body: WebhookUpdate): Promise<WebhookView | null> }) {
  const [url, setUrl] = useState(wh.url);
  const [name, setName] = useState(wh.name);
  const [description, setDescription] = useState(wh.description);
  const [schedule, setSchedule] = useState(wh.retry_schedule?.join(', ') ?? '');
  /** The webhook as the form's changes started from: a save is based on its version. */
  const [loaded, setLoaded] = useState(wh);
  const [base, setBase] = useState(wh.version);
  const [refused, setRefused] = useState<VersionFields | null>(null);
  const [busy, setBusy] = useState(false);
  const edited = JSON.stringify([url, name, description, parseSchedule(schedule)]) !== settingsOf(loaded);
  // A newer version is said only when a save would replace something of it (not an enable or disable).
  const replaces = wh.version > base && edited && settingsOf(wh) !== settingsOf(loaded);
  const newer = refused ?? (replaces ? wh : null);

  const save = async (baseVersion: number) => {
    setBusy(true);
    try {
      const saved = await onSave({ url, name, description, retry_schedule: parseSchedule(schedule), base_version: baseVersion });
      setRefused(null);
      if (saved) {
        setLoaded(saved);
        setBase(saved.version);
      }
    } catch (err) {
      if (!(err instanceof ApiError && err.conflict)) throw err;
      setRefused({ version: err.conflict.current_version, changed_by: err.conflict.changed_by, changed_at: err.conflict.changed_at });
    } finally {
      setBusy(false);
    }
  };
  /** Takes the version the service has: the form's changes are dropped. */
  const reload = () => {
    setUrl(wh.url);
    setName(wh.name);
    setDescription(wh.description);
    setSchedule(wh.retry_schedule?.join(', ') ?? '');
    setLoaded(wh);
    setBase(wh.version);
    setRefused(null);
  };
  // A newer version that a save would not replace is taken in: the form shows it, or keeps its edits on top.
  useEffect(() => {
    if (refused || replaces || wh.version <= base) return;
    if (edited) {
      setLoaded(wh);
      setBase(wh.version);
    } else reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wh.version]);
  return (
    <form
      className="card form"
      aria-labelledby="wh-settings-h"
      onSubmit={(e) => {
        e.preventDefault();
        void save(base);
      }}
    >
      <h2 id="wh-settings-h">Settings</h2>
      {newer && (
        <VersionNotice
          what="webhook"
          newer={newer}
          base={base}
          refused={refused !== null}
          busy={busy}
          onReload={reload}
          onKeepMine={() => {
            setLoaded(wh);
            setBase(wh.version);
          }}
          onOverwrite={() => {
            setBase(newer.version);
            void save(newer.version);
          }}
        />
      )}
      <div className="field">
        <label htmlFor="whe-url">URL</label>
        <input id="whe-url" type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="whe-name">Name</label>
        <input id="whe-name" value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="whe-desc">Description</label>
        <input id="whe-desc" value={description} onChange={(e) => setDescription(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="whe-retry">Retry schedule (seconds, comma separated; empty: the service&apos;s)</label>
        <input id="whe-retry" className="mono" value={schedule} onChange={(e) => setSchedule(e.target.value)} />
      </div>
      <div className="row end">
        <button type="submit" className="primary" disabled={busy}>
          Save webhook
        </button>
      </div>
    </form>
  );
}

/** The fields this form edits, as JSON (compared, never sent). */
function settingsOf(w: WebhookView): string {
  return JSON.stringify([w.url, w.name, w.description, w.retry_schedule ?? null]);
}
