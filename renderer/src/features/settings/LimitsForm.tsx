// The settings that change without a restart (PATCH /v1/settings): retries, retention, run timeout
// and host parking. Each says where its value comes from; one given by a flag at start stays in
// force for this run whatever is saved, and one whose change waits for a restart says so.
import { type FormEvent, Fragment, useState } from 'react';
import type { EditableSettingName, InstanceSettings, SettingsPatch } from '../../../../runtime/contract/settings-api';
import { messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { ErrorText } from '../../ui/ErrorText';
import { saveSettings } from './settings-data';

/** Each field: its label and unit, in the order shown. */
const FIELDS: Array<{ name: EditableSettingName; label: string; unit: string }> = [
  { name: 'retry_schedule', label: 'Retry schedule', unit: 'seconds between attempts, comma-separated' },
  { name: 'delivery_timeout_seconds', label: 'Delivery timeout', unit: 'seconds' },
  { name: 'disable_after_seconds', label: 'Disable a failing webhook after', unit: 'seconds (0: never)' },
  { name: 'event_retention', label: 'Events kept per source', unit: 'events' },
  { name: 'invocation_retention', label: 'Runs kept per source', unit: 'runs' },
  { name: 'run_timeout_seconds', label: 'Run timeout', unit: 'seconds' },
  { name: 'host_idle_seconds', label: 'Host idle time', unit: 'seconds before an idle host stops' },
  { name: 'warm_hosts', label: 'Warm hosts', unit: 'hosts kept running at most' },
];

const shown = (settings: InstanceSettings, name: EditableSettingName) => {
  const value = settings[name];
  return Array.isArray(value) ? value.join(', ') : String(value);
};

/** The value typed, as the API takes it (the retry schedule as a list; text that is not a number goes as typed, for the service to name what is wrong). */
const parsed = (name: EditableSettingName, text: string): unknown => {
  if (name === 'retry_schedule') return text.trim() === '' ? [] : text.split(',').map((p) => (p.trim() === '' || Number.isNaN(Number(p)) ? p.trim() : Number(p)));
  return text.trim() === '' || Number.isNaN(Number(text)) ? text : Number(text);
};

/** A form over the editable settings: saves those changed, then shows what is in force. */
export function LimitsForm({ settings, onSaved }: { settings: InstanceSettings; onSaved(next: InstanceSettings): void }) {
  const toast = useApp((s) => s.toast);
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(FIELDS.map((f) => [f.name, shown(settings, f.name)])));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const patch: Record<string, unknown> = {};
    // A field is sent when changed from the value in force.
    for (const f of FIELDS) if (values[f.name] !== shown(settings, f.name)) patch[f.name] = parsed(f.name, values[f.name] ?? '');
    if (Object.keys(patch).length === 0) return;
    setSaving(true);
    try {
      const next = await saveSettings(patch as SettingsPatch);
      setError(null);
      toast('Settings saved');
      onSaved(next);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="card" aria-labelledby="limits-h">
      <h2 id="limits-h">Limits and retries</h2>
      <form onSubmit={(e) => void submit(e)} aria-label="Limits and retries">
        <dl className="meta-grid">
          {FIELDS.map((f) => {
            const state = settings.editable[f.name];
            const id = `setting-${f.name}`;
            return (
              <Fragment key={f.name}>
                <dt>
                  <label htmlFor={id}>{f.label}</label>
                </dt>
                <dd>
                  <input id={id} name={f.name} value={values[f.name] ?? ''} aria-describedby={`${id}-note`} onChange={(e) => setValues({ ...values, [f.name]: e.target.value })} />{' '}
                  <span id={`${id}-note`} className="muted" data-testid={`${id}-note`}>
                    {f.unit}
                    {state.origin === 'flag' && (
                      <>
                        ; set by <code>{state.flag}</code> at start, which overrides the saved value{state.saved === null ? '' : ` (${Array.isArray(state.saved) ? state.saved.join(', ') : state.saved})`} for this run
                      </>
                    )}
                    {state.restart_required && '; applies after restart'}
                  </span>
                </dd>
              </Fragment>
            );
          })}
        </dl>
        <ErrorText text={error} />
        <button type="submit" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <p className="muted small-note">
          Saved in the data dir and applied at once, without a restart. A flag given to <code>spout serve</code> at start wins over the saved value for that run.
        </p>
      </form>
    </section>
  );
}
