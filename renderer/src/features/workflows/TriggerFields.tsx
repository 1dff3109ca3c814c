import type { WorkflowTriggerInput, WorkflowView } from '../../../../runtime/contract/workflow-api';
import { useApp } from '../../app/store';

/** A trigger being written: every type's fields are kept, so switching type back loses nothing. */
export interface TriggerDraft {
  type: WorkflowTriggerInput['type'];
  customResponse: boolean;
  sourceId: string;
  eventName: string;
  timerMode: 'interval' | 'cron';
  interval: string;
  cron: string;
  timezone: string;
}

export const NEW_TRIGGER: TriggerDraft = { type: 'http', customResponse: false, sourceId: '', eventName: '', timerMode: 'interval', interval: '60', cron: '*/15 * * * *', timezone: '' };

/** The draft of a saved trigger, for the edit form (the other types keep their defaults). */
export function triggerDraft(t: WorkflowView['trigger']): TriggerDraft {
  switch (t.type) {
    case 'http':
      return { ...NEW_TRIGGER, type: 'http', customResponse: t.custom_response };
    case 'source':
      return { ...NEW_TRIGGER, type: 'source', sourceId: t.source_id, eventName: t.event_name ?? '' };
    case 'timer':
      return 'cron' in t.schedule ? { ...NEW_TRIGGER, type: 'timer', timerMode: 'cron', cron: t.schedule.cron, timezone: t.schedule.timezone ?? '' } : { ...NEW_TRIGGER, type: 'timer', timerMode: 'interval', interval: String(t.schedule.intervalSeconds) };
    case 'manual':
      return { ...NEW_TRIGGER, type: 'manual' };
  }
}

/** The trigger to send for a draft. */
export function triggerInput(d: TriggerDraft): WorkflowTriggerInput {
  switch (d.type) {
    case 'http':
      return { type: 'http', custom_response: d.customResponse };
    case 'source':
      return { type: 'source', source_id: d.sourceId, event_name: d.eventName.trim() || null };
    case 'timer':
      return { type: 'timer', schedule: d.timerMode === 'cron' ? { cron: d.cron.trim(), ...(d.timezone.trim() ? { timezone: d.timezone.trim() } : {}) } : { intervalSeconds: Number(d.interval) } };
    case 'manual':
      return { type: 'manual' };
  }
}

const TYPES: Array<{ type: TriggerDraft['type']; label: string; hint: string }> = [
  { type: 'http', label: 'HTTP request', hint: 'An endpoint URL; each request runs the workflow.' },
  { type: 'source', label: 'Source events', hint: 'Each event a deployed source emits runs the workflow.' },
  { type: 'timer', label: 'Timer', hint: 'Runs on an interval or a cron schedule.' },
  { type: 'manual', label: 'Manual', hint: 'Runs only when you run it here or through the API.' },
];

/** The trigger part of the workflow form: its type (radio group) and that type's fields. */
export function TriggerFields({ draft, onChange, error }: { draft: TriggerDraft; onChange(d: TriggerDraft): void; error?: string }) {
  const sources = useApp((s) => s.sources);
  const set = (patch: Partial<TriggerDraft>) => onChange({ ...draft, ...patch });
  return (
    <fieldset className="trigger-fields">
      <legend>Trigger</legend>
      <div className="radio-row">
        {TYPES.map((t) => (
          <label key={t.type} className="radio">
            <input type="radio" name="trigger-type" value={t.type} checked={draft.type === t.type} onChange={() => set({ type: t.type })} aria-describedby={`trigger-hint-${t.type}`} />
            {t.label}
            <span id={`trigger-hint-${t.type}`} className="sr-only">
              {t.hint}
            </span>
          </label>
        ))}
      </div>
      <p className="muted">{TYPES.find((t) => t.type === draft.type)?.hint}</p>
      {draft.type === 'http' && (
        <label className="check">
          <input type="checkbox" checked={draft.customResponse} onChange={(e) => set({ customResponse: e.target.checked })} />
          Custom response: a step answers the caller with <code>$.respond</code> (else 200 when the run ends)
        </label>
      )}
      {draft.type === 'source' && (
        <div className="row wrap">
          <label htmlFor="trigger-source">Source</label>
          <select id="trigger-source" value={draft.sourceId} onChange={(e) => set({ sourceId: e.target.value })}>
            <option value="">{sources.length ? 'Choose a source…' : 'No sources deployed'}</option>
            {sources.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.id})
              </option>
            ))}
          </select>
          <label htmlFor="trigger-channel">Channel</label>
          <input id="trigger-channel" placeholder="default" value={draft.eventName} onChange={(e) => set({ eventName: e.target.value })} />
        </div>
      )}
      {draft.type === 'timer' && (
        <div className="row wrap">
          <label htmlFor="trigger-timer-mode">Schedule</label>
          <select id="trigger-timer-mode" value={draft.timerMode} onChange={(e) => set({ timerMode: e.target.value as TriggerDraft['timerMode'] })}>
            <option value="interval">Interval</option>
            <option value="cron">Cron</option>
          </select>
          {draft.timerMode === 'interval' ? (
            <>
              <label htmlFor="trigger-interval">Every (seconds)</label>
              <input id="trigger-interval" type="number" min={1} step={1} value={draft.interval} onChange={(e) => set({ interval: e.target.value })} />
            </>
          ) : (
            <>
              <label htmlFor="trigger-cron">Cron expression</label>
              <input id="trigger-cron" className="mono" value={draft.cron} onChange={(e) => set({ cron: e.target.value })} />
              <label htmlFor="trigger-timezone">Time zone</label>
              <input id="trigger-timezone" placeholder="UTC" value={draft.timezone} onChange={(e) => set({ timezone: e.target.value })} />
            </>
          )}
        </div>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
