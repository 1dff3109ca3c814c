import { JsonInput } from '../../ui/JsonInput';

/** The optional `steps` JSON an action's test run reads, as a workflow would pass it. */
export function StepsField({ value, onChange }: { value: Record<string, unknown> | undefined; onChange(value: Record<string, unknown> | undefined): void }) {
  return (
    <div className="field steps-input">
      <label htmlFor="action-steps">
        <code>steps</code> <span className="muted">(JSON, optional)</span>
      </label>
      <p id="action-steps-desc" className="prop-desc">
        What the action reads as <code>steps</code>, as a workflow would pass it, e.g. <code>{'{"trigger": {"event": {"body": {}}}}'}</code>.
      </p>
      <JsonInput id="action-steps" value={value} onChange={(v) => onChange(v as Record<string, unknown> | undefined)} allowText={false} objectOnly disabled={false} describedBy="action-steps-desc" />
    </div>
  );
}
