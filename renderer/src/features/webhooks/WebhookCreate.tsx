import { type FormEvent, useState } from 'react';
import { messageOf } from '../../api/client';
import { parseSchedule } from '../../ui/format';
import { createWebhook } from './webhook-data';

/** The form's labels of the API's parameters: errors name the field the user sees. */
export const WEBHOOK_LABELS = { url: 'URL', name: 'Name', description: 'Description', retry_schedule: 'Retry schedule' };

/** The new-webhook form; the created webhook's signing secret is handed back to be shown once. */
export function WebhookCreate({ onCreated }: { onCreated(id: string, secret: string): void }) {
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [schedule, setSchedule] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const wh = await createWebhook({ url, ...(name ? { name } : {}), ...(description ? { description } : {}), ...(schedule.trim() ? { retry_schedule: parseSchedule(schedule) } : {}) });
      onCreated(wh.id, wh.signing_secret ?? '');
    } catch (err) {
      setError(messageOf(err, WEBHOOK_LABELS));
    }
  };
  return (
    <form className="card form" onSubmit={(e) => void submit(e)}>
      <h1 tabIndex={-1}>New webhook</h1>
      <div className="field">
        <label htmlFor="wh-url">URL</label>
        <input id="wh-url" type="url" required placeholder="http://127.0.0.1:4000/hook" value={url} onChange={(e) => setUrl(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="wh-name">Name (optional)</label>
        <input id="wh-name" value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="wh-desc">Description (optional)</label>
        <input id="wh-desc" value={description} onChange={(e) => setDescription(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="wh-retry">Retry schedule (seconds between attempts, comma separated; empty: the service&apos;s)</label>
        <input id="wh-retry" className="mono" placeholder="5, 300, 1800" value={schedule} onChange={(e) => setSchedule(e.target.value)} />
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="row end">
        <button type="submit" className="primary">
          Create webhook
        </button>
      </div>
    </form>
  );
}
