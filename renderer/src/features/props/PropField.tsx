import { useState } from 'react';
import type { ConfigureTarget } from '../../../../runtime/contract/component-api';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import type { SourceView } from '../../../../runtime/contract/source-api';
import { useApp } from '../../app/store';
import { CopyButton } from '../../ui/CopyButton';
import { HttpTester } from '../../ui/HttpTester';
import { JsonInput } from '../../ui/JsonInput';
import { Link } from '../../ui/Link';
import { Markdown } from '../../ui/Markdown';
import { AccountPicker } from '../settings/AccountPicker';
import { ArrayInput } from './ArrayInput';
import { AsyncOptions } from './AsyncOptions';
import { ExpressionInput, type Suggestion } from './ExpressionInput';
import { chosen, endpointFor, heldValue, normalizeOption } from './prop-values';
import { TimerField } from './TimerField';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Types a deploy needs a value for when the prop is neither optional nor defaulted (as the service checks). */
const NEEDS_VALUE = new Set(['string', 'string[]', 'integer', 'integer[]', 'boolean', 'boolean[]', 'object', 'any', 'app', 'data_store', '$.interface.timer']);

/** Whether the form must get a value for `prop` before a deploy. */
export function isRequired(prop: ConfigurableProp): boolean {
  // A `static` timer is the source's fixed schedule: nothing to configure.
  return !prop.optional && prop.default === undefined && prop.static === undefined && !prop.hidden && !prop.disabled && NEEDS_VALUE.has(prop.type);
}

/** Where a form's fields may hold workflow expressions (`{{steps…}}`), and the references they may use. */
export interface ExpressionOptions {
  suggestions: Suggestion[];
}

/**
 * One prop of a configuration form, by type, with its label, description and constraints. With
 * `expressions` (a workflow step) text fields suggest `{{…}}` references and every other field has
 * a switch to an expression instead of a value; `readOnly` shows the values without changing them.
 */
export function PropField({
  prop,
  value,
  configured,
  configureTarget,
  source,
  error,
  idPrefix = 'prop',
  expressions,
  readOnly = false,
  onChange,
}: {
  prop: ConfigurableProp;
  value: unknown;
  configured: Record<string, unknown>;
  configureTarget: ConfigureTarget | null;
  source: SourceView | null;
  error?: string;
  idPrefix?: string;
  expressions?: ExpressionOptions;
  readOnly?: boolean;
  onChange(value: unknown): void;
}) {
  const id = `${idPrefix}-${prop.name}`;
  const descId = `${id}-desc`;
  const errorId = `${id}-error`;
  // Inputs point at the description and, when there is one, the error under the field.
  const described = error ? `${descId} ${errorId}` : descId;
  const required = isRequired(prop);
  const label = prop.label ?? prop.name;
  const disabled = prop.disabled === true || readOnly;
  const [reveal, setReveal] = useState(false);
  const [expressionOn, setExpressionOn] = useState(false);
  const dataStores = useApp((s) => s.dataStores);

  if (prop.type === 'alert') {
    const kind = typeof prop.alertType === 'string' && ['info', 'neutral', 'warning', 'error'].includes(prop.alertType) ? prop.alertType : 'info';
    return (
      <div className={`alert alert-${kind}`} role={kind === 'error' || kind === 'warning' ? 'alert' : 'note'} data-testid={`alert-${prop.name}`}>
        <Markdown text={String(prop.content ?? prop.description ?? '')} />
      </div>
    );
  }

  const header = (
    <>
      <div className="prop-label">
        <label htmlFor={id}>
          <Markdown text={label} inline />
          {prop.optional && <span className="muted"> (optional)</span>}
        </label>
        {/* Seen as a mark beside the label (the label stays the field's name); heard from aria-required. */}
        {required && (
          <span className="required-mark" aria-hidden="true" title="required">
            *
          </span>
        )}
        <span className="prop-type" aria-hidden="true">
          {prop.type}
        </span>
      </div>
      <div id={descId} className="prop-desc">
        {prop.description && <Markdown text={prop.description} />}
        {/* A saved workflow step's secret comes back as the API's mask. */}
        {expressions && prop.secret && <span className="muted">Secret: stored sealed, shown masked.{value === '********' && ' Left as ******** the stored value is kept; type a new one to replace it.'}</span>}
        {(prop.min !== undefined || prop.max !== undefined) && (
          <span className="muted">
            {prop.min !== undefined && `min ${prop.min}`} {prop.max !== undefined && `max ${prop.max}`}
          </span>
        )}
      </div>
    </>
  );

  let input: React.ReactNode;
  const staticOptions = Array.isArray(prop.options) ? prop.options.map(normalizeOption) : null;
  const isArray = prop.type.endsWith('[]');
  const itemType = isArray ? prop.type.slice(0, -2) : prop.type;

  if (prop.type === '$.interface.http') {
    const endpoint = endpointFor(source, prop.name);
    input = endpoint ? (
      <div className="endpoint-box">
        <div className="row">
          <code id={id} className="endpoint" data-testid="endpoint-url">
            {endpoint}
          </code>
          <CopyButton text={endpoint} label="Copy URL" />
        </div>
        <HttpTester endpoint={endpoint} idPrefix={`${id}-test`} />
      </div>
    ) : (
      <p id={id} className="muted">
        An endpoint URL is assigned when the source is deployed.
      </p>
    );
  } else if (prop.type === '$.interface.timer') {
    input = <TimerField prop={prop} id={id} source={source} value={value} onChange={onChange} disabled={disabled} />;
  } else if (prop.type === '$.service.db') {
    input = (
      <p id={id} className="muted">
        The source&apos;s own key-value store, as <code>this.{prop.name}</code>.
      </p>
    );
  } else if (prop.type === 'app') {
    const current = (value as { authProvisionId?: string } | undefined)?.authProvisionId ?? '';
    input = (
      <AccountPicker
        id={id}
        app={prop.app}
        value={current}
        none={(count) => (count ? 'Choose an account…' : `No ${prop.app ?? ''} account connected`)}
        disabled={disabled}
        describedBy={described}
        required={required}
        onChange={(accountId) => onChange(accountId ? { authProvisionId: accountId } : undefined)}
      />
    );
  } else if (prop.type === 'data_store') {
    const current = (value as { dataStore?: string } | undefined)?.dataStore ?? '';
    input = (
      <div className="row">
        <select id={id} aria-describedby={described} aria-required={required || undefined} disabled={disabled} value={current} onChange={(e) => onChange(e.target.value ? { dataStore: e.target.value } : undefined)}>
          <option value="">Choose a data store…</option>
          {dataStores.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name} ({d.record_count} records)
            </option>
          ))}
        </select>
        <Link to="/data-stores" className="small-link">
          Manage data stores
        </Link>
      </div>
    );
  } else if (prop.hasOptionsMethod || prop.propDefinition) {
    input = configureTarget ? (
      <AsyncOptions prop={prop} inputId={id} configureTarget={configureTarget} configured={configured} value={value} multiple={isArray} disabled={disabled} describedBy={described} onChange={onChange} />
    ) : (
      <p className="muted">Check the code to load this prop&apos;s options.</p>
    );
  } else if (staticOptions) {
    // A withLabel prop holds each choice with its label.
    const idx = (held: unknown) => staticOptions.findIndex((o) => same(o.value, heldValue(prop, held)));
    const choose = (index: string) => {
      const option = staticOptions[Number(index)];
      return option && chosen(prop, option);
    };
    input = isArray ? (
      <select id={id} multiple aria-describedby={described} disabled={disabled} value={(Array.isArray(value) ? value : []).map((v) => String(idx(v)))} onChange={(e) => onChange([...e.target.selectedOptions].map((o) => choose(o.value)))}>
        {staticOptions.map((o, i) => (
          <option key={i} value={String(i)}>
            {o.label}
          </option>
        ))}
      </select>
    ) : (
      <select id={id} aria-describedby={described} aria-required={required || undefined} disabled={disabled} value={value === undefined ? '' : String(idx(value))} onChange={(e) => onChange(e.target.value === '' ? undefined : choose(e.target.value))}>
        <option value="">Select…</option>
        {staticOptions.map((o, i) => (
          <option key={i} value={String(i)}>
            {o.label}
          </option>
        ))}
      </select>
    );
  } else if (isArray) {
    input = <ArrayInput id={id} itemType={itemType} value={value} onChange={onChange} disabled={disabled} label={prop.label ?? prop.name} describedBy={described} />;
  } else if (prop.type === 'boolean') {
    input = (
      <select id={id} aria-describedby={described} aria-required={required || undefined} disabled={disabled} value={value === undefined ? '' : String(value)} onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value === 'true')}>
        <option value="">{prop.optional ? 'Not set' : 'Select…'}</option>
        <option value="true">true</option>
        <option value="false">false</option>
      </select>
    );
  } else if (prop.type === 'integer') {
    input = (
      <input
        id={id}
        type="number"
        step={1}
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        min={prop.min}
        max={prop.max}
        aria-describedby={described}
        disabled={disabled}
        value={value === undefined || value === null ? '' : String(value)}
        onChange={(e) => onChange(e.target.value === '' ? undefined : Math.trunc(Number(e.target.value)))}
      />
    );
  } else if (prop.type === 'object' || prop.type === 'any' || prop.type === 'http_request') {
    input = <JsonInput id={id} value={value} onChange={onChange} allowText={prop.type === 'any'} objectOnly={prop.type !== 'any'} disabled={disabled} describedBy={described} />;
  } else {
    // string (and unknown types, as text)
    input = (
      <div className="row">
        <input
          id={id}
          className="grow"
          type={prop.secret && !reveal ? 'password' : 'text'}
          aria-invalid={error ? true : undefined}
          aria-required={required || undefined}
          autoComplete={prop.secret ? 'off' : undefined}
          aria-describedby={described}
          disabled={disabled}
          value={value === undefined || value === null ? '' : String(heldValue(prop, value))}
          onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        />
        {prop.secret && (
          <button type="button" className="small" aria-pressed={reveal} onClick={() => setReveal(!reveal)}>
            {reveal ? 'Hide' : 'Show'}
          </button>
        )}
      </div>
    );
  }

  if (expressions && !prop.type.startsWith('$.')) {
    const text = typeof value === 'string' ? value : '';
    const asExpression = expressionOn || (typeof value === 'string' && value.includes('{{'));
    // A plain text prop takes references as it is; other types switch between a value and an expression.
    const plainText = prop.type === 'string' && !staticOptions && !prop.hasOptionsMethod && !prop.propDefinition;
    const expressionInput = <ExpressionInput id={id} value={text} suggestions={expressions.suggestions} describedBy={described} disabled={disabled} placeholder="a value, or {{ for a reference" onChange={(t) => onChange(t === '' ? undefined : t)} />;
    if (plainText) {
      if (!prop.secret) input = expressionInput;
    } else {
      input = (
        <div className="prop-value-row">
          {asExpression ? expressionInput : input}
          <button
            type="button"
            className="small"
            aria-pressed={asExpression}
            aria-label={`Use an expression for ${label}`}
            title={asExpression ? 'Use a value' : 'Use an expression ({{steps…}})'}
            disabled={disabled}
            onClick={() => {
              setExpressionOn(!asExpression);
              onChange(undefined);
            }}
          >
            {'{{…}}'}
          </button>
        </div>
      );
    }
  }

  return (
    <div className={`prop prop-${prop.type.replace(/[^a-z_]/gi, '')}`} data-prop={prop.name}>
      {header}
      {input}
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
