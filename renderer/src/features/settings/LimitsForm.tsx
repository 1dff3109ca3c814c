// The settings that change without a restart (PATCH /v1/settings): retries, retention, run timeout
// and host parking. Each says where its value comes from; one given by a flag at start stays in
// force for this run whatever is saved, and one whose change waits for a restart says so.
import { type FormEvent, Fragment, useState } from 'react';
import type { EditableSettingName, InstanceSettings, SettingsPatch } from '../../../../runtime/contract/settings-api';
import { messageOf } from '../../api/client';
import { useSaveQueue } from '../../api/use-save-queue';
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
  // Saves in flight: a Save pressed meanwhile is queued, never dropped (the last value typed wins).
  const [saving, setSaving] = useState(0);
  const save = useSaveQueue(
    async (patch: SettingsPatch) => {
      const next = await saveSettings(patch);
      onSaved(next);
      return next;
    },
    () => settings,
  );

  /** The fields typed differently from `from`, as the API takes them. */
  const changed = (typed: Record<string, string>, from: InstanceSettings) => {
    const patch: Record<string, unknown> = {};
    for (const f of FIELDS) if (typed[f.name] !== shown(from, f.name)) patch[f.name] = parsed(f.name, typed[f.name] ?? '');
    return patch as SettingsPatch;
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const typed = values;
    if (Object.keys(changed(typed, settings)).length === 0) return;
    setSaving((n) => n + 1);
    try {
      // Read against the settings as saved by then: a Save pressed while another is on its way sends what still differs.
      await save((saved) => changed(typed, saved));
      setError(null);
      toast('Settings saved');
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setSaving((n) => n - 1);
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
        <div className="row">
          <button type="submit">Save</button>
          <span className="muted" aria-live="polite">
            {saving > 0 ? 'Saving…' : ''}
          </span>
        </div>
        <p className="muted small-note">
          Saved in the data dir and applied at once, without a restart. A flag given to <code>spout serve</code> at start wins over the saved value for that run.
        </p>
      </form>
    </section>
  );
}
