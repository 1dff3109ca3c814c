import { useCallback, useEffect, useRef, useState } from 'react';
import type { ConfigureTarget, OptionsAnswer } from '../../../../runtime/contract/component-api';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import { messageOf } from '../../api/client';
import { loadOptions } from './prop-data';
import { chosen, heldLabel, heldValue } from './prop-values';

interface Option {
  label: string;
  value: unknown;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A prop's async options (its `options` method or its propDefinition's), run by the service with
 * the form's values: search when `useQuery`, "Load more" pages through `page`/`prev_context`.
 */
export function AsyncOptions({
  prop,
  inputId,
  configureTarget,
  configured,
  value,
  multiple,
  disabled,
  describedBy,
  onChange,
}: {
  prop: ConfigurableProp;
  inputId: string;
  configureTarget: ConfigureTarget;
  configured: Record<string, unknown>;
  value: unknown;
  multiple: boolean;
  disabled: boolean;
  describedBy: string;
  onChange(value: unknown): void;
}) {
  const [options, setOptions] = useState<Option[]>([]);
  const [page, setPage] = useState(0);
  const [context, setContext] = useState<Record<string, unknown> | null>(null);
  const [more, setMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [query, setQuery] = useState('');
  const configuredRef = useRef(configured);
  configuredRef.current = configured;
  const generation = useRef(0);
  const optionsRef = useRef<Option[]>([]);

  /** The next page, fetched ahead: "Load more" shows only when it holds options not shown yet. */
  const ahead = useRef<{ page: number; answer: OptionsAnswer } | null>(null);

  const fetchPage = useCallback(
    (nextPage: number, prevContext: Record<string, unknown> | null, q: string) =>
      loadOptions({
        ...configureTarget,
        prop_name: prop.name,
        configured_props: configuredRef.current,
        page: nextPage,
        prev_context: prevContext ?? {},
        ...(prop.useQuery && q ? { query: q } : {}),
      }),
    [configureTarget, prop.name, prop.useQuery],
  );

  const load = useCallback(
    async (nextPage: number, prevContext: Record<string, unknown> | null, q: string) => {
      const gen = ++generation.current;
      setLoading(true);
      try {
        const cached = ahead.current?.page === nextPage && nextPage > 0 ? ahead.current.answer : null;
        const answer = cached ?? (await fetchPage(nextPage, prevContext, q));
        if (gen !== generation.current) return;
        const known = nextPage === 0 ? [] : optionsRef.current;
        const merged = [...known, ...answer.options.filter((o) => !known.some((x) => same(x.value, o.value)))];
        setOptions(merged);
        optionsRef.current = merged;
        // The context an options method returned, given back with the next page (anything else is no context).
        const context = answer.context !== null && typeof answer.context === 'object' ? (answer.context as Record<string, unknown>) : null;
        setContext(context);
        setPage(nextPage);
        setErrors(answer.errors ?? []);
        // Token paging (`{options, context}`): more while the context carries a token. Page-number
        // paging: more only if the next page has options not shown yet (methods that ignore
        // `page` return the same list again).
        ahead.current = null;
        if (context && Object.keys(context).length) {
          setMore(Object.values(context).some((v) => v !== null && v !== undefined && v !== ''));
        } else if (answer.options.length === 0) {
          setMore(false);
        } else {
          const next = await fetchPage(nextPage + 1, context, q);
          if (gen !== generation.current) return;
          ahead.current = { page: nextPage + 1, answer: next };
          setMore(next.options.some((o) => !merged.some((x) => same(x.value, o.value))));
        }
      } catch (err) {
        if (gen === generation.current) setErrors([messageOf(err)]);
      } finally {
        if (gen === generation.current) setLoading(false);
      }
    },
    [fetchPage],
  );

  useEffect(() => {
    void load(0, null, '');
  }, [load]);

  // Searching reloads from the first page, a moment after typing stops.
  useEffect(() => {
    if (!prop.useQuery) return;
    const timer = setTimeout(() => void load(0, null, query), 300);
    return () => clearTimeout(timer);
  }, [query, prop.useQuery, load]);

  // A configured value that is not among the loaded options is still shown, by its label when it has one (withLabel).
  const shown = [...options];
  const held: unknown[] = multiple ? (Array.isArray(value) ? value : []) : value === undefined || value === '' ? [] : [value];
  const selectedValues = held.map((h) => heldValue(prop, h));
  held.forEach((h, i) => {
    const v = selectedValues[i];
    if (!shown.some((o) => same(o.value, v))) shown.unshift({ label: heldLabel(prop, h) ?? String(typeof v === 'object' ? JSON.stringify(v) : v), value: v });
  });
  const indexOf = (v: unknown) => shown.findIndex((o) => same(o.value, v));
  const choose = (index: string) => {
    const option = shown[Number(index)];
    return option && chosen(prop, option);
  };

  return (
    <div className="async-options">
      {prop.useQuery && <input type="search" aria-label={`Search ${prop.label ?? prop.name}`} placeholder="Search…" value={query} onChange={(e) => setQuery(e.target.value)} disabled={disabled} />}
      <div className="row">
        {multiple ? (
          <select id={inputId} multiple size={Math.min(8, Math.max(3, shown.length))} aria-describedby={describedBy} disabled={disabled} value={selectedValues.map((v) => String(indexOf(v)))} onChange={(e) => onChange([...e.target.selectedOptions].map((o) => choose(o.value)))}>
            {shown.map((o, i) => (
              <option key={i} value={String(i)}>
                {o.label}
              </option>
            ))}
          </select>
        ) : (
          <select id={inputId} aria-describedby={describedBy} disabled={disabled} value={selectedValues.length ? String(indexOf(selectedValues[0])) : ''} onChange={(e) => onChange(e.target.value === '' ? undefined : choose(e.target.value))}>
            <option value="">{loading && shown.length === 0 ? 'Loading…' : 'Select…'}</option>
            {shown.map((o, i) => (
              <option key={i} value={String(i)}>
                {o.label}
              </option>
            ))}
          </select>
        )}
        <button type="button" className="small" onClick={() => void load(0, null, query)} disabled={loading || disabled} aria-label={`Reload options of ${prop.label ?? prop.name}`}>
          ↻
        </button>
        {more && (
          <button type="button" className="small" onClick={() => void load(page + 1, context, query)} disabled={loading || disabled}>
            Load more
          </button>
        )}
        <span className="muted" aria-live="polite">
          {loading ? 'Loading…' : `${options.length} option${options.length === 1 ? '' : 's'}`}
        </span>
      </div>
      {errors.length > 0 && (
        <ul className="field-error" role="alert">
          {errors.map((e, i) => (
            <li key={i}>{e}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
