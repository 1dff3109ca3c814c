import { type FormEvent, useState } from 'react';
import { messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { subscribe } from './webhook-data';

/** Subscribes a source (or every source) to a webhook, on the default or a named channel. */
export function SubscribeForm({ webhookId, onDone }: { webhookId: string; onDone(): void }) {
  const { sources, toast } = useApp();
  const [emitter, setEmitter] = useState('');
  const [channel, setChannel] = useState('');
  const [busy, setBusy] = useState(false);
  // Disarmed while a subscribe is on its way and reset after it: a second click cannot subscribe twice.
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!emitter || busy) return;
    setBusy(true);
    try {
      await subscribe(emitter, webhookId, channel.trim() || undefined);
      toast('Subscribed');
      setEmitter('');
      setChannel('');
      onDone();
    } catch (err) {
      toast(messageOf(err), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="row wrap" onSubmit={(e) => void submit(e)} aria-label="Subscribe a source">
      <label htmlFor="sub-source">Source</label>
      <select id="sub-source" value={emitter} onChange={(e) => setEmitter(e.target.value)}>
        <option value="">Choose a source…</option>
        <option value="dc_*">All sources (dc_*)</option>
        {sources.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name} ({s.id})
          </option>
        ))}
      </select>
      <label htmlFor="sub-channel">Channel</label>
      <input id="sub-channel" placeholder="default" value={channel} onChange={(e) => setChannel(e.target.value)} />
      <button type="submit" className="primary" disabled={!emitter || busy}>
        {busy ? 'Subscribing…' : 'Subscribe'}
      </button>
    </form>
  );
}
