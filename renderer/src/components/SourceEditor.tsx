import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ComponentView } from '../../../runtime/contract/component-api';
import type { SourceView } from '../../../runtime/contract/source-api';
import { ApiError, api, messageOf, type ActionRunView, type ConfigurableProp, type FieldProblem } from '../api';
import { locateProblems, toMarkers, type LocatedProblem } from '../problems';
import { configuredProps, initialValues } from '../props';
import { useRoute } from '../router';
import { useApp } from '../store';
import { ActionRunResult } from './ActionRunResult';
import { CodeEditor, type EditorDocument } from './CodeEditor';
import { JsonInput } from './JsonInput';
import { ProblemList } from './ProblemList';
import { PropForm } from './PropForm';

/** Where the component comes from: module text typed here, a registry key, or a URL (spec 4.5 links). */
export type Origin = { kind: 'code'; code: string; filename: string } | { kind: 'key'; key: string; component: ComponentView } | { kind: 'url'; url: string };

const languageOf = (filename: string) => (/\.(ts|mts|cts)$/.test(filename) ? 'typescript' : 'javascript');

/** Moves focus to the field of the first prop (in form order) that has a problem. */
function focusFirstError(props: ConfigurableProp[], errors: Record<string, string>): void {
  const first = props.find((p) => errors[p.name]);
  if (!first) return;
  // After React has rendered the messages.
  requestAnimationFrame(() => {
    const field = document.getElementById(`prop-${first.name}`) ?? document.querySelector<HTMLElement>(`[data-prop="${CSS.escape(first.name)}"] input, [data-prop="${CSS.escape(first.name)}"] select, [data-prop="${CSS.escape(first.name)}"] textarea`);
    field?.focus();
    field?.scrollIntoView({ block: 'center' });
  });
}

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
 * deploy (`POST /v1/sources`) or save-to-redeploy (`PUT /v1/sources/{id}`). When the service says
 * the new code is an action (`type: "action"`), it is test-run instead (`POST /v1/actions/run`),
 * with an optional `steps` object, and the run's output is shown below the code.
 */
export function SourceEditor({ source, origin: initialOrigin, onTypeChange }: { source: SourceView | null; origin: Origin; onTypeChange?(type: ComponentView['type'] | null): void }) {
  const navigate = useRoute((s) => s.navigate);
  const { upsertSource, toast } = useApp();
  const [origin, setOrigin] = useState(initialOrigin);
  const startCode = origin.kind === 'code' ? origin.code : '';
  const [code, setCode] = useState(startCode);
  // What the editor shows until the user types; null while a source's code is loading from the service.
  const [doc, setDoc] = useState<EditorDocument | null>(source ? null : { text: startCode, rev: 0 });
  const [filename, setFilename] = useState(origin.kind === 'code' ? origin.filename : 'component.mjs');
  const [codeDirty, setCodeDirty] = useState(false);
  const [formDirty, setFormDirty] = useState(false);
  const [name, setName] = useState(source?.name ?? '');
  const [component, setComponent] = useState<ComponentView | null>(origin.kind === 'key' ? origin.component : null);
  const [props, setProps] = useState<ConfigurableProp[]>(origin.kind === 'key' ? (origin.component.configurable_props as ConfigurableProp[]) : []);
  const [values, setValues] = useState<Record<string, unknown>>(() => (origin.kind === 'key' ? initialValues(origin.component.configurable_props as ConfigurableProp[]) : {}));
  const [problems, setProblems] = useState<{ title: string; items: LocatedProblem[] } | null>(null);
  /** The checked component's warnings (rules Pipedream tolerates): markers and a list, never blocking. */
  const [warnings, setWarnings] = useState<LocatedProblem[]>([]);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [checkErrors, setCheckErrors] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [showAllErrors, setShowAllErrors] = useState(false);
  const [busy, setBusy] = useState<null | 'check' | 'deploy' | 'run'>(null);
  const [stepsInput, setStepsInput] = useState<Record<string, unknown> | undefined>(undefined);
  const [runResult, setRunResult] = useState<ActionRunView | null>(null);
  const [runStatus, setRunStatus] = useState('');
  const [reveal, setReveal] = useState<{ line: number; at: number } | null>(null);
  const checkedCode = useRef<string | null>(null);

  /** Puts text in the editor (the service's code, an opened file), replacing what it shows. */
  const loadCode = (text: string) => {
    setCode(text);
    setDoc((d) => ({ text, rev: (d?.rev ?? 0) + 1 }));
  };

  // An existing source: the code it runs (the service is the one source of truth, whoever deployed
  // it), its component's props with the dynamic ones it deployed with, and its values. Loaded again
  // when the source changes elsewhere (CLI, another window) while nothing here is edited.
  useEffect(() => {
    if (!source || codeDirty || formDirty) return;
    let cancelled = false;
    Promise.all([api.getSource(source.id), api.getComponent(source.component_id)])
      .then(([read, c]) => {
        if (cancelled) return;
        const merged = mergeProps(c.configurable_props as ConfigurableProp[], read.dynamic_props as ConfigurableProp[] | undefined);
        setComponent(c);
        setProps(merged);
        setValues(initialValues(merged, read.configured_props));
        setFilename(read.filename ?? c.filename ?? 'component.mjs');
        loadCode(read.code ?? c.code ?? '');
        checkedCode.current = read.code ?? null;
      })
      .catch((err: unknown) => !cancelled && toast(messageOf(err), 'error'));
    return () => {
      cancelled = true;
    };
    // Loaded per source and per change of it; local edits are never overwritten.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source?.id, source?.updated_at]);

  const showProblems = useCallback(
    (title: string, err: unknown) => {
      const errors: FieldProblem[] = err instanceof ApiError ? err.errors : [];
      // A value problem goes under its field only; the list keeps the code's problems (each message once).
      setWarnings(err instanceof ApiError ? locateProblems(err.warnings, code).map((w) => ({ ...w, warning: true })) : []);
      const byProp: Record<string, string> = {};
      const rest: FieldProblem[] = [];
      for (const e of errors) {
        const prop = /^configured_props\.([^.:]+)/.exec(e.path)?.[1];
        if (prop && props.some((p) => p.name === prop)) byProp[prop] ??= e.message;
        else rest.push(e);
      }
      const fields = Object.keys(byProp).length;
      setProblems({ title: rest.length === 0 && fields ? `${title}: ${fields === 1 ? 'a field needs' : `${fields} fields need`} attention` : title, items: locateProblems(rest, code) });
      setFieldErrors(byProp);
      setShowAllErrors(true);
      focusFirstError(props, byProp);
    },
    [code, props],
  );

  /** A deployed source's timer left unset keeps the schedule it has: not a problem of the form. */
  const keepsOwn = (name: string) => source !== null && values[name] === undefined && props.find((p) => p.name === name)?.type === '$.interface.timer';

  // Inline validation: the service's own rules (POST /v1/components/props/check), a moment after
  // each change; a field shows its problem once it was touched, every field after a deploy attempt.
  useEffect(() => {
    if (props.length === 0) {
      setCheckErrors({});
      return;
    }
    let cancelled = false;
    const timer = setTimeout(() => {
      api
        .checkProps(props, configuredProps(props, values))
        .then((errors) => {
          if (cancelled) return;
          const byProp: Record<string, string> = {};
          for (const e of errors) if (e.prop && !keepsOwn(e.prop)) byProp[e.prop] ??= e.field_message;
          setCheckErrors(byProp);
        })
        .catch(() => undefined);
    }, 250);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [props, values]);

  /** Saves the code as a component (validates it) and builds the form from its props. */
  const check = async (): Promise<{ c: ComponentView; fresh: ConfigurableProp[]; nextValues: Record<string, unknown> } | null> => {
    setBusy('check');
    try {
      const c = await api.saveComponent(code, filename);
      checkedCode.current = code;
      setComponent(c);
      const fresh = c.configurable_props as ConfigurableProp[];
      const nextValues = { ...initialValues(fresh), ...Object.fromEntries(Object.entries(values).filter(([k]) => fresh.some((p) => p.name === k))) };
      setProps(fresh);
      setValues(nextValues);
      setWarnings(locateProblems(c.warnings ?? [], code).map((w) => ({ ...w, warning: true })));
      setProblems(null);
      setFieldErrors({});
      return { c, fresh, nextValues };
    } catch (err) {
      showProblems(err instanceof ApiError && err.errors.length ? 'The component has problems' : messageOf(err), err);
      return null;
    } finally {
      setBusy(null);
    }
  };

  /** Runs the action once with the form's values and the `steps` given. */
  const testRun = async (c: ComponentView, runProps: ConfigurableProp[], runValues: Record<string, unknown>) => {
    setBusy('run');
    setRunStatus('Running…');
    try {
      const result = await api.runAction({
        id: origin.kind === 'key' ? origin.key : c.id,
        configured_props: configuredProps(runProps, runValues),
        ...(stepsInput !== undefined ? { steps: stepsInput } : {}),
      });
      setRunResult(result);
      setProblems(null);
      setFieldErrors({});
      setRunStatus(`Test run finished: ${result.error ? `error, ${result.error.name}: ${result.error.message}` : result.exit ? 'exited' : 'success'}`);
    } catch (err) {
      showProblems('Test run failed', err);
      if (!(err instanceof ApiError && err.errors.length)) setProblems({ title: messageOf(err), items: [] });
      setRunStatus('Test run failed');
    } finally {
      setBusy(null);
    }
  };

  const deploy = async () => {
    if (busy) return;
    const useCode = origin.kind === 'code' && (!source || codeDirty);
    let checked: { c: ComponentView | null; fresh: ConfigurableProp[]; nextValues: Record<string, unknown> } = { c: component, fresh: props, nextValues: values };
    if (useCode && checkedCode.current !== code) {
      const result = await check();
      if (!result) return;
      checked = result;
    }
    // Values the service would refuse: show them at their fields and focus the first.
    const refused = await api.checkProps(checked.fresh, configuredProps(checked.fresh, checked.nextValues)).catch(() => []);
    const byProp: Record<string, string> = {};
    for (const e of refused) if (e.prop && !keepsOwn(e.prop)) byProp[e.prop] ??= e.field_message;
    if (Object.keys(byProp).length) {
      setCheckErrors(byProp);
      setShowAllErrors(true);
      setRunStatus(`${Object.keys(byProp).length} field${Object.keys(byProp).length === 1 ? '' : 's'} need attention`);
      focusFirstError(checked.fresh, byProp);
      return;
    }
    // An action is not deployed: it runs once per test run.
    if (!source && checked.c?.type === 'action') return testRun(checked.c, checked.fresh, checked.nextValues);
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
      setCodeDirty(false);
      setFormDirty(false);
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
    loadCode(await file.text());
    setFilename(/\.(ts|mts)$/.test(file.name) ? 'component.ts' : /\.cjs$/.test(file.name) ? 'component.cjs' : 'component.mjs');
    setCodeDirty(true);
  };

  const shownErrors: Record<string, string> = { ...fieldErrors };
  for (const [name, message] of Object.entries(checkErrors)) if (showAllErrors || touched.has(name)) shownErrors[name] ??= message;

  const isAction = !source && component?.type === 'action';
  const componentType = component?.type ?? null;
  useEffect(() => onTypeChange?.(componentType), [componentType, onTypeChange]);
  const markers = useMemo(() => toMarkers([...(problems?.items ?? []), ...warnings]), [problems, warnings]);
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
            {doc ? (
            <CodeEditor
              document={doc}
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
            ) : (
              <p className="empty code-loading" role="status">
                Loading the source&apos;s code…
              </p>
            )}
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
            <button
              type="button"
              onClick={() => {
                setOrigin({ kind: 'code', code: startCode || '', filename: 'component.mjs' });
                loadCode(startCode || '');
              }}
            >
              Write code instead
            </button>
          </div>
        )}
        {problems && <ProblemList title={problems.title} problems={problems.items} onReveal={(line) => setReveal({ line, at: Date.now() })} />}
        {warnings.length > 0 && (
          <ProblemList title={`${warnings.length} warning${warnings.length === 1 ? '' : 's'}: the component runs, but does not follow these rules`} problems={warnings} warnings onReveal={(line) => setReveal({ line, at: Date.now() })} />
        )}
        {isAction && runResult && <ActionRunResult result={runResult} onClear={() => setRunResult(null)} />}
      </div>
      <div className="config-pane">
        {isAction ? (
          <p className="notice" data-testid="action-notice">
            <strong>{component?.name}</strong> is an action: it is not deployed but test-run, once per click, with <code>$.context.JIT</code> true. Saved actions can be steps of a workflow.
          </p>
        ) : (
          <div className="field">
            <label htmlFor="source-name">Source name</label>
            <input id="source-name" value={name} placeholder={component?.name ?? 'from the component'} onChange={(e) => {
              setName(e.target.value);
              setFormDirty(true);
            }} onKeyDown={(e) => e.key === 'Enter' && void deploy()} />
          </div>
        )}
        <h3>Props</h3>
        {props.length === 0 && !component ? (
          <p className="empty">Check the code to see its props here.</p>
        ) : (
          <PropForm
            props={props}
            values={values}
            configureId={configureId}
            source={source}
            errors={shownErrors}
            onChange={(v) => {
              const changed = props.filter((p) => JSON.stringify(v[p.name]) !== JSON.stringify(values[p.name])).map((p) => p.name);
              if (changed.length) {
                setTouched((t) => new Set([...t, ...changed]));
                // The old verdict on an edited field is stale until the next check answers.
                setCheckErrors((c) => Object.fromEntries(Object.entries(c).filter(([k]) => !changed.includes(k))));
              }
              // A value edited since the deploy answered is checked again inline.
              if (changed.some((n) => fieldErrors[n])) setFieldErrors((f) => Object.fromEntries(Object.entries(f).filter(([k]) => !changed.includes(k))));
              setValues(v);
              setFormDirty(true);
            }}
            onPropsChange={setProps}
          />
        )}
        {isAction && (
          <div className="field steps-input">
            <label htmlFor="action-steps">
              <code>steps</code> <span className="muted">(JSON, optional)</span>
            </label>
            <p id="action-steps-desc" className="prop-desc">
              What the action reads as <code>steps</code>, as a workflow would pass it, e.g. <code>{'{"trigger": {"event": {"body": {}}}}'}</code>.
            </p>
            <JsonInput id="action-steps" value={stepsInput} onChange={(v) => setStepsInput(v as Record<string, unknown> | undefined)} allowText={false} objectOnly disabled={false} describedBy="action-steps-desc" />
          </div>
        )}
        <p className="sr-only" role="status">
          {runStatus}
        </p>
        <div className="row end sticky-actions">
          <span className="muted">{source ? (codeDirty ? 'Code changed' : 'Ctrl+S saves') : isAction ? 'Ctrl+S runs' : 'Ctrl+S deploys'}</span>
          <button type="button" className="primary" disabled={busy !== null} onClick={() => void deploy()}>
            {isAction ? (busy === 'run' ? 'Running…' : 'Test run') : busy === 'deploy' ? (source ? 'Saving…' : 'Deploying…') : source ? 'Save & redeploy' : 'Deploy'}
          </button>
        </div>
      </div>
    </div>
  );
}
