import { useEffect, useRef, useState } from 'react';
import type { ConfigureTarget } from '../../../../runtime/contract/component-api';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import type { SourceView } from '../../../../runtime/contract/source-api';
import { messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { type ExpressionOptions, PropField } from './PropField';
import { reloadProps } from './prop-data';
import { configuredProps } from './prop-values';

/**
 * A configuration form generated from `configurable_props`. A change to a `reloadProps` prop asks
 * the service for the dynamic props (`POST /v1/components/props`) and re-renders with them.
 */
export function PropForm({
  props,
  values,
  configureTarget,
  source,
  errors,
  idPrefix,
  expressions,
  readOnly,
  onChange,
  onPropsChange,
}: {
  props: ConfigurableProp[];
  values: Record<string, unknown>;
  /** The component the form's options and additionalProps are asked of; null: none can be asked. */
  configureTarget: ConfigureTarget | null;
  source: SourceView | null;
  errors: Record<string, string>;
  /** Prefixes the fields' ids (several forms on one page, as a workflow's steps). */
  idPrefix?: string;
  /** A workflow step's form: values may be `{{…}}` expressions, with these suggestions. */
  expressions?: ExpressionOptions;
  readOnly?: boolean;
  onChange(values: Record<string, unknown>): void;
  onPropsChange(props: ConfigurableProp[]): void;
}) {
  const { loadAccounts, loadDataStores } = useApp();
  const [reloading, setReloading] = useState(false);
  const [reloadError, setReloadError] = useState<string | null>(null);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (props.some((p) => p.type === 'app')) void loadAccounts();
    if (props.some((p) => p.type === 'data_store')) void loadDataStores();
  }, [props, loadAccounts, loadDataStores]);

  const reload = (next: Record<string, unknown>) => {
    if (!configureTarget) return;
    if (pending.current) clearTimeout(pending.current);
    pending.current = setTimeout(async () => {
      setReloading(true);
      try {
        onPropsChange(await reloadProps(configureTarget, configuredProps(props, next)));
        setReloadError(null);
      } catch (err) {
        setReloadError(messageOf(err));
      } finally {
        setReloading(false);
      }
    }, 300);
  };

  const configured = configuredProps(props, values);
  const shown = props.filter((p) => !p.hidden);
  if (shown.length === 0) return <p className="empty">This component has no props to configure.</p>;
  return (
    <div className="prop-form" aria-busy={reloading}>
      {shown.map((p) => (
        <PropField
          key={`${p.name}:${p.type}`}
          prop={p}
          value={values[p.name]}
          configured={configured}
          configureTarget={configureTarget}
          source={source}
          error={errors[p.name]}
          idPrefix={idPrefix}
          expressions={expressions}
          readOnly={readOnly}
          onChange={(v) => {
            const next = { ...values, [p.name]: v };
            if (v === undefined) delete next[p.name];
            onChange(next);
            if (p.reloadProps) reload(next);
          }}
        />
      ))}
      {reloading && (
        <p className="muted" aria-live="polite">
          Loading props…
        </p>
      )}
      {reloadError && (
        <p className="field-error" role="alert">
          {reloadError}
        </p>
      )}
    </div>
  );
}
