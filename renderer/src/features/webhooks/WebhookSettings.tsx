import { useState } from 'react';
import type { WebhookUpdate, WebhookView } from '../../../../runtime/contract/webhook-api';
import { parseSchedule } from '../../ui/format';

/** Edits a webhook's URL, name, description and retry schedule. */
export function WebhookSettings({ wh, onSave }: { wh: WebhookView; onSave(body: WebhookUpdate): void }) {
  const [url, setUrl] = useState(wh.url);
  const [name, setName] = useState(wh.name);
  const [description, setDescription] = useState(wh.description);
  const [schedule, setSchedule] = useState(wh.retry_schedule?.join(', ') ?? '');
  return (
    <form
      className="card form"
      aria-labelledby="wh-settings-h"
      onSubmit={(e) => {
        e.preventDefault();
        onSave({ url, name, description, retry_schedule: parseSchedule(schedule) });
      }}
    >
      <h2 id="wh-settings-h">Settings</h2>
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
        <button type="submit" className="primary">
          Save webhook
        </button>
      </div>
    </form>
  );
}
