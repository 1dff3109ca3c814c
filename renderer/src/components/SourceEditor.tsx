import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ComponentView, SourceView } from '../../../runtime/api/types';
import { ApiError, api, messageOf, type ConfigurableProp, type FieldProblem } from '../api';
import { locateProblems, toMarkers, type LocatedProblem } from '../problems';
import { configuredProps, initialValues } from '../props';
import { useRoute } from '../router';
import { useApp } from '../store';
import { saveCode, savedCode } from '../template';
import { CodeEditor } from './CodeEditor';
import { ProblemList } from './ProblemList';
import { PropForm } from './PropForm';

/** Where the component comes from: module text typed here, a registry key, or a URL (spec 4.5 links). */
export type Origin = { kind: 'code'; code: string; filename: string } | { kind: 'key'; key: string; component: ComponentView } | { kind: 'url'; url: string };

const languageOf = (filename: string) => (/\.(ts|mts|cts)$/.test(filename) ? 'typescript' : 'javascript');

/** Dynamic props replace static ones of the same name (as the service merges them). */
function mergeProps(base: ConfigurableProp[], dynamic: ConfigurableProp[] | undefined): ConfigurableProp[] {
  if (!dynamic?.length) return base;
  const byName = new Map(dynamic.map((p) => [p.name, p]));
  const merged = base.map((p) => byName.get(p.name) ?? p);
  for (const p of dynamic) if (!base.some((b) => b.name === p.name)) merged.push(p);
  return merged;
}

/**
 * Creates or edits a source: the code in monaco, checked by the service (`POST /v1/components`,
 * problems shown inline and listed), the prop form generated from its `configurable_props`, then
 * deploy (`POST /v1/sources`) or save-to-redeploy (`PUT /v1/sources/{id}`).
 */
export function SourceEditor({ source, origin: initialOrigin }: { source: SourceView | null; origin: Origin }) {
  const navigate = useRoute((s) => s.navigate);
  const { upsertSource, toast } = useApp();
  const [origin, setOrigin] = useState(initialOrigin);
  const kept = source ? savedCode(source.id) : null;
  const startCode = origin.kind === 'code' ? origin.code : '';
  const [code, setCode] = useState(kept?.code ?? startCode);
  const [filename, setFilename] = useState(kept?.filename ?? (origin.kind === 'code' ? origin.filename : 'component.mjs'));
  const [codeDirty, setCodeDirty] = useState(false);
  const [name, setName] = useState(source?.name ?? '');
  const [component, setComponent] = useState<ComponentView | null>(origin.kind === 'key' ? origin.component : null);
  const [props, setProps] = useState<ConfigurableProp[]>(origin.kind === 'key' ? (origin.component.configurable_props as ConfigurableProp[]) : []);
  const [values, setValues] = useState<Record<string, unknown>>(() => (origin.kind === 'key' ? initialValues(origin.component.configurable_props as ConfigurableProp[]) : {}));
  const [problems, setProblems] = useState<{ title: string; items: LocatedProblem[] } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<null | 'check' | 'deploy'>(null);
  const [reveal, setReveal] = useState<{ line: number; at: number } | null>(null);
  const checkedCode = useRef<string | null>(null);

  // An existing source: its component's props (with the dynamic ones it deployed with) and values.
  useEffect(() => {
    if (!source) return;
    let cancelled = false;
    api
      .getComponent(source.component_id)
      .then((c) => {
        if (cancelled) return;
        const merged = mergeProps(c.configurable_props as ConfigurableProp[], source.dynamic_props as ConfigurableProp[] | undefined);
        setComponent(c);
        setProps(merged);
        setValues(initialValues(merged, source.configured_props));
        if (!kept) setCode(`// ${c.name} ${c.version} (${c.id})\n// The service does not return a deployed component's code. Paste or open the module here\n// to redeploy new code; saving without code changes only updates the name and props.\n`);
      })
      .catch((err: unknown) => toast(messageOf(err), 'error'));
    return () => {
      cancelled = true;
    };
    // Loaded once per source; later saves update the state directly.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source?.id]);

  const showProblems = useCallback(
    (title: string, err: unknown) => {
      const errors: FieldProblem[] = err instanceof ApiError ? err.errors : [];
      const located = locateProblems(errors, code);
      setProblems({ title, items: located });
      const byProp: Record<string, string> = {};
      for (const p of located) if (p.prop && !byProp[p.prop]) byProp[p.prop] = `${p.path}: ${p.message}`;
      // Value errors of a deploy name the prop (`configured_props.x`, or just `x`).
      for (const e of errors) {
        const prop = /^(?:configured_props\.)?([^.:]+)/.exec(e.path)?.[1];
        if (prop && props.some((p) => p.name === prop) && !byProp[prop]) byProp[prop] = e.message;
      }
      setFieldErrors(byProp);
    },
    [code, props],
  );

  /** Saves the code as a component (validates it) and builds the form from its props. */
  const check = async (): Promise<ComponentView | null> => {
    setBusy('check');
    try {
      const c = await api.saveComponent(code, filename);
      checkedCode.current = code;
      setComponent(c);
      const fresh = c.configurable_props as ConfigurableProp[];
      setProps(fresh);
      setValues((old) => ({ ...initialValues(fresh), ...Object.fromEntries(Object.entries(old).filter(([k]) => fresh.some((p) => p.name === k))) }));
      setProblems(null);
      setFieldErrors({});
      return c;
    } catch (err) {
      showProblems(err instanceof ApiError && err.errors.length ? 'The component has problems' : messageOf(err), err);
      return null;
    } finally {
      setBusy(null);
    }
  };

  const deploy = async () => {
    if (busy) return;
    const useCode = origin.kind === 'code' && (!source || codeDirty);
    if (useCode && checkedCode.current !== code) {
      const c = await check();
      if (!c) return;
      // Props just appeared: let the user fill them in before deploying.
      const required = (c.configurable_props as ConfigurableProp[]).filter((p) => !p.optional && p.default === undefined && ['string', 'integer', 'boolean', 'app', 'data_store', 'string[]', 'integer[]', 'object'].includes(p.type) && values[p.name] === undefined);
      if (!source && required.length > 0) {
        toast(`Fill in ${required.map((p) => p.label ?? p.name).join(', ')}, then deploy`);
        return;
      }
    }
    setBusy('deploy');
    try {
      const configured = configuredProps(props, values);
      const body: Record<string, unknown> = { configured_props: configured, ...(name ? { name } : {}) };
      if (useCode) Object.assign(body, { component_code: code, component_filename: filename });
      let saved: SourceView;
      if (source) {
        saved = await api.updateSource(source.id, body);
        toast('Saved and redeployed');
      } else {
        if (origin.kind === 'key') body.component_key = origin.key;
        if (origin.kind === 'url') body.component_url = origin.url;
        saved = await api.deploySource(body);
        toast(`Deployed ${saved.name}`);
      }
      if (useCode) saveCode(saved.id, code, filename);
      setCodeDirty(false);
      setProblems(null);
      setFieldErrors({});
      upsertSource(saved);
      if (!source) navigate(`/sources/${encodeURIComponent(saved.id)}`);
    } catch (err) {
      showProblems(source ? 'Saving failed' : 'Deploying failed', err);
      if (!(err instanceof ApiError && err.errors.length)) setProblems({ title: messageOf(err), items: [] });
    } finally {
      setBusy(null);
    }
  };

  const open = async (file: File | undefined) => {
    if (!file) return;
    setCode(await file.text());
    setFilename(/\.(ts|mts)$/.test(file.name) ? 'component.ts' : /\.cjs$/.test(file.name) ? 'component.cjs' : 'component.mjs');
    setCodeDirty(true);
  };

  const markers = useMemo(() => toMarkers(problems?.items ?? []), [problems]);
  const configureId = source && (!component || component.id === source.component_id) ? source.id : (component?.id ?? (origin.kind === 'key' ? origin.key : null));

  return (
    <div className="source-editor" role="region" aria-label={source ? 'Edit source' : 'Create source'}>
      <div className="editor-pane">
        {origin.kind === 'code' ? (
          <>
            <div className="toolbar">
              <label htmlFor="code-language">Language</label>
              <select id="code-language" value={languageOf(filename) === 'typescript' ? 'component.ts' : filename === 'component.cjs' ? 'component.cjs' : 'component.mjs'} onChange={(e) => setFilename(e.target.value)}>
                <option value="component.mjs">JavaScript (ESM)</option>
                <option value="component.cjs">JavaScript (CommonJS)</option>
                <option value="component.ts">TypeScript</option>
              </select>
              <label className="file-button">
                Open file…
                <input type="file" accept=".js,.mjs,.cjs,.ts,.mts" className="sr-only" aria-label="Open a component file" onChange={(e) => void open(e.target.files?.[0])} />
              </label>
              <span className="grow" />
              <button type="button" onClick={() => void check()} disabled={busy !== null}>
                {busy === 'check' ? 'Checking…' : 'Check code & load props'}
              </button>
            </div>
            <CodeEditor
              value={code}
              language={languageOf(filename)}
              markers={markers}
              props={props}
              revealLine={reveal}
              onChange={(v) => {
                setCode(v);
                setCodeDirty(true);
              }}
              onSave={() => void deploy()}
            />
          </>
        ) : (
          <div className="origin-box">
            {origin.kind === 'key' ? (
              <p>
                Registry component <code>{origin.key}</code>: <strong>{origin.component.name}</strong> {origin.component.version}
                {origin.component.description && <> — {origin.component.description}</>}
              </p>
            ) : (
              <p>
                Component from <code>{origin.url}</code>. The service fetches and validates it when you deploy.
              </p>
            )}
            <button type="button" onClick={() => setOrigin({ kind: 'code', code: startCode || '', filename: 'component.mjs' })}>
              Write code instead
            </button>
          </div>
        )}
        {problems && <ProblemList title={problems.title} problems={problems.items} onReveal={(line) => setReveal({ line, at: Date.now() })} />}
      </div>
      <div className="config-pane">
        <div className="field">
          <label htmlFor="source-name">Source name</label>
          <input id="source-name" value={name} placeholder={component?.name ?? 'from the component'} onChange={(e) => setName(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && void deploy()} />
        </div>
        <h3>Props</h3>
        {props.length === 0 && !component ? (
          <p className="empty">Check the code to see its props here.</p>
        ) : (
          <PropForm props={props} values={values} configureId={configureId} source={source} errors={fieldErrors} onChange={setValues} onPropsChange={setProps} />
        )}
        <div className="row end sticky-actions">
          <span className="muted">{source ? (codeDirty ? 'Code changed' : 'Ctrl+S saves') : 'Ctrl+S deploys'}</span>
          <button type="button" className="primary" disabled={busy !== null} onClick={() => void deploy()}>
            {busy === 'deploy' ? (source ? 'Saving…' : 'Deploying…') : source ? 'Save & redeploy' : 'Deploy'}
          </button>
        </div>
      </div>
    </div>
  );
}
