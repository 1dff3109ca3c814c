import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import { useApp } from '../../app/store';
import { Markdown } from '../../ui/Markdown';
import { normalizeOption } from '../props/prop-values';
import { isJsonProp, SECRET_MASK } from './workflow';

const PLACEHOLDER: Record<string, string> = {
  string: 'text, may contain {{steps.…}}',
  integer: '42 or {{steps.…}}',
  boolean: 'true, false or {{steps.…}}',
};

/**
 * One prop of a workflow step, typed as text so that any value may be a `{{steps…}}` reference:
 * one line (with the references and the prop's options as suggestions) for scalars, a JSON box
 * for objects, arrays and `any`; accounts and data stores are chosen from a list.
 */
export function StepPropField({ prop, id, text, references, error, onChange }: { prop: ConfigurableProp; id: string; text: string; references: string[]; error?: string; onChange(text: string): void }) {
  const { accounts, dataStores } = useApp();
  const label = prop.label ?? prop.name;
  const descId = `${id}-desc`;

  if (prop.type === 'alert') {
    return (
      <div className="alert alert-info" role="note">
        <Markdown text={String(prop.content ?? prop.description ?? '')} />
      </div>
    );
  }

  const defaultHint = prop.default !== undefined ? `default: ${JSON.stringify(prop.default)}` : undefined;
  let input: React.ReactNode;
  if (prop.type === 'app' || prop.type === 'data_store') {
    const key = prop.type === 'app' ? 'authProvisionId' : 'dataStore';
    let current = '';
    try {
      current = text ? String((JSON.parse(text) as Record<string, unknown>)[key] ?? '') : '';
    } catch {
      current = '';
    }
    const choices = prop.type === 'app' ? accounts.filter((a) => !prop.app || a.app === prop.app).map((a) => ({ id: a.id, label: `${a.name} (${a.id})` })) : dataStores.map((d) => ({ id: d.id, label: `${d.name} (${d.id})` }));
    input = (
      <select id={id} aria-describedby={descId} value={current} onChange={(e) => onChange(e.target.value ? JSON.stringify({ [key]: e.target.value }) : '')}>
        <option value="">{prop.type === 'app' ? (choices.length ? 'Choose an account…' : `No ${prop.app ?? ''} account connected`) : 'Choose a data store…'}</option>
        {choices.map((c) => (
          <option key={c.id} value={c.id}>
            {c.label}
          </option>
        ))}
      </select>
    );
  } else if (isJsonProp(prop)) {
    input = (
      <textarea
        id={id}
        className="mono"
        rows={3}
        aria-describedby={descId}
        aria-invalid={error ? true : undefined}
        placeholder={defaultHint ?? (prop.type.endsWith('[]') ? '["a", "{{steps.…}}"] or {{steps.…}}' : '{"key": "{{steps.trigger.event.body}}"} or {{steps.…}}')}
        value={text}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  } else {
    const options = Array.isArray(prop.options) ? prop.options.map(normalizeOption) : [];
    input = (
      <>
        <input id={id} className="mono" list={`${id}-list`} autoComplete="off" aria-describedby={descId} aria-invalid={error ? true : undefined} placeholder={defaultHint ?? PLACEHOLDER[prop.type] ?? 'a value or {{steps.…}}'} value={text} onChange={(e) => onChange(e.target.value)} />
        <datalist id={`${id}-list`}>
          {options.map((o, i) => (
            <option key={`o${i}`} value={typeof o.value === 'string' ? o.value : JSON.stringify(o.value)}>
              {o.label}
            </option>
          ))}
          {references.map((r) => (
            <option key={r} value={r} />
          ))}
        </datalist>
      </>
    );
  }

  return (
    <div className="prop" data-prop={prop.name}>
      <div className="prop-label">
        <label htmlFor={id}>
          <Markdown text={label} inline />
          {prop.optional && <span className="muted"> (optional)</span>}
        </label>
        <span className="prop-type" aria-hidden="true">
          {prop.type}
        </span>
      </div>
      <div id={descId} className="prop-desc">
        {prop.description && <Markdown text={prop.description} />}
        {prop.secret && <span className="muted">Secret: stored sealed, shown masked.{text === SECRET_MASK && ' Left as ******** the stored value is kept; type a new one to replace it.'}</span>}
      </div>
      {input}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
