// The source editor's state and what it does: the code and its checked component, the prop form's
// values and problems, check, test run, deploy and save. One store per draft (a source, or a new
// source from an origin), kept while the app runs and its unsaved part in localStorage
// (draft-storage.ts), so an edit outlives a tab switch, another source, and a reload
// (docs/desktop-and-ui.md).
import { create } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ActionRunView } from '../../../../runtime/contract/action-api';
import type { ComponentCheckView, ComponentFile, ConfigureTarget } from '../../../../runtime/contract/component-api';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import type { FieldProblem } from '../../../../runtime/contract/problem';
import type { SourceInput, SourceView } from '../../../../runtime/contract/source-api';
import { ApiError, messageOf } from '../../api/client';
import { api } from '../../api/v1';
import { useApp } from '../../app/store';
import type { EditorDocument } from '../../ui/code-editor/CodeEditor';
import { madeBy } from '../../ui/VersionNotice';
import { configuredProps, initialValues } from '../props/prop-values';
import { keepDraft, keptDraft, keptDraftKeys } from './draft-storage';
import { type LocatedProblem, locateProblems, runProblems } from './problems';
import { deploySource, updateSource } from './source-data';

/**
 * Where the component comes from: module text typed here; a component chosen in the gallery (a
 * registry key, or a saved component), configured as it is with its code read-only; or a URL
 * (a deep link, docs/desktop-and-ui.md).
 */
export type Origin = { kind: 'code'; code: string; filename: string } | { kind: 'key'; key: string; from: 'registry' | 'saved'; component: ComponentCheckView; code: string; filename: string; files?: ComponentFile[]; entry_file?: string } | { kind: 'url'; url: string };

export interface EditorState {
  origin: Origin;
  /** The code as typed (with `files`, the open file's); `doc` is what the editor is told to show (null while a source's code loads). */
  code: string;
  /** A source whose component is several original files (a registry component's): every file as edited; null for single-file code. */
  files: ComponentFile[] | null;
  /** With `files`: the component's own file, and the file the editor shows. */
  entryFile: string | null;
  openFile: string | null;
  /** The files' text as the service has them, by path (edited files are those that differ). */
  loadedFiles: Record<string, string> | null;
  /** The source's code is a registry bundle kept without its files (an older Spout deployed it). */
  codeIsBundle: boolean;
  doc: EditorDocument | null;
  filename: string;
  codeDirty: boolean;
  formDirty: boolean;
  name: string;
  /** The component the code declares, as the last check or load read it (not necessarily saved: `id` null). */
  component: ComponentCheckView | null;
  props: ConfigurableProp[];
  values: Record<string, unknown>;
  /** What the last check, deploy or run refused, and the code it was about (typing on makes the list stale). */
  problems: { title: string; items: LocatedProblem[]; about: string | ComponentFile[] } | null;
  /** The checked component's warnings (rules Pipedream tolerates): markers and a list, never blocking. */
  warnings: LocatedProblem[];
  /** Problems the last deploy or run answered, by prop. */
  fieldErrors: Record<string, string>;
  /** The inline check's verdicts, by prop (shown once a field is touched, all after a deploy attempt). */
  checkErrors: Record<string, string>;
  touched: Set<string>;
  showAllErrors: boolean;
  busy: null | 'check' | 'deploy' | 'run';
  stepsInput: Record<string, unknown> | undefined;
  runResult: ActionRunView | null;
  /** Announced to screen readers. */
  runStatus: string;
  reveal: { line: number; at: number } | null;
  /** The code the service last accepted as a component. */
  checkedCode: string | null;
  /** The code whose props the form shows (read by a check, a load, or after typing stopped). */
  propsCode: string | null;
  /** Problems the service found in the code as typed, read after typing stopped (marked in the editor until a check lists them). */
  liveProblems: LocatedProblem[];
  /** When the unsaved edits were last kept (epoch ms); null when there are none. */
  draftSavedAt: number | null;
  /** The unsaved edits could not be kept in this browser's storage (full, or disabled): a reload would lose them. */
  draftUnkept: boolean;
  /** The version of the source the edits here are based on: a save names it, and a newer one is not replaced unseen. */
  base: SourceBase | null;
  /** A newer version saved elsewhere that a save would replace (read with its code); `refused`: a save was refused for it (409). */
  newer: { view: SourceView; refused: boolean } | null;
}

/** What a version of a source holds that a save from here would replace (docs/desktop-and-ui.md "Versions"). */
interface SourceBase {
  version: number;
  code: string;
  /** Its configured props and name, as JSON (compared, never sent). */
  settings: string;
}

/** The base a source's single read gives. */
const baseOf = (read: SourceView): SourceBase => ({ version: read.version, code: read.code ?? '', settings: JSON.stringify([read.configured_props, read.name]) });

/** The text of the file at `path` among `files` ('' when it is not there). */
const openText = (files: readonly ComponentFile[], path: string) => files.find((f) => f.path === path)?.code ?? '';

/** Dynamic props replace static ones of the same name (as the service merges them). */
export function mergeProps(base: ConfigurableProp[], dynamic: ConfigurableProp[] | undefined): ConfigurableProp[] {
  if (!dynamic?.length) return base;
  const byName = new Map(dynamic.map((p) => [p.name, p]));
  const merged = base.map((p) => byName.get(p.name) ?? p);
  for (const p of dynamic) if (!base.some((b) => b.name === p.name)) merged.push(p);
  return merged;
}

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

/** A new editor's state: for `source` (its code loads from the service), or a new source from `origin`. */
function initialState(source: SourceView | null, origin: Origin): EditorState {
  const startCode = origin.kind === 'code' ? origin.code : '';
  const keyProps = origin.kind === 'key' ? (origin.component.configurable_props as ConfigurableProp[]) : [];
  return {
    origin,
    code: startCode,
    files: null,
    entryFile: null,
    openFile: null,
    loadedFiles: null,
    codeIsBundle: false,
    doc: source ? null : { text: startCode, rev: 0 },
    filename: origin.kind === 'code' ? origin.filename : 'component.mjs',
    codeDirty: false,
    formDirty: false,
    name: source?.name ?? '',
    component: origin.kind === 'key' ? origin.component : null,
    props: keyProps,
    values: origin.kind === 'key' ? initialValues(keyProps) : {},
    problems: null,
    warnings: [],
    fieldErrors: {},
    checkErrors: {},
    touched: new Set(),
    showAllErrors: false,
    busy: null,
    stepsInput: undefined,
    runResult: null,
    runStatus: '',
    reveal: null,
    checkedCode: null,
    propsCode: null,
    liveProblems: [],
    draftSavedAt: null,
    draftUnkept: false,
    base: null,
    newer: null,
  };
}

export type EditorStore = StoreApi<EditorState>;

/** The store of one editor and the actions on it. */
function createEditorStore(key: string, source: SourceView | null, origin: Origin) {
  const kept = keptDraft(key);
  const store = createStore<EditorState>(() => {
    const fresh = initialState(source, origin);
    if (!kept) return fresh;
    const code = kept.code ?? fresh.code;
    const codeDirty = kept.code !== null;
    return {
      ...fresh,
      ...(codeDirty ? { origin: { kind: 'code', code, filename: kept.filename }, code, doc: { text: code, rev: 0 }, filename: kept.filename, codeDirty } : {}),
      ...(codeDirty && kept.files ? { files: kept.files.files, entryFile: kept.files.entry_file, openFile: kept.files.open, code: openText(kept.files.files, kept.files.open), doc: { text: openText(kept.files.files, kept.files.open), rev: 0 } } : {}),
      ...(kept.values ? { values: kept.values, name: kept.name, formDirty: true } : {}),
      draftSavedAt: kept.savedAt,
    };
  });
  const { getState: get, setState: set } = store;
  let sourceNow = source;
  const markUnsaved = (unsaved: boolean) => useUnsaved.setState((u) => (u.keys.has(key) === unsaved ? u : { keys: unsaved ? new Set([...u.keys, key]) : new Set([...u.keys].filter((k) => k !== key)) }));
  // Every change to the edits is kept at once: a reload or a crash right after typing loses nothing.
  store.subscribe((now, before) => {
    if (now.code === before.code && now.files === before.files && now.openFile === before.openFile && now.values === before.values && now.name === before.name && now.filename === before.filename && now.codeDirty === before.codeDirty && now.formDirty === before.formDirty) return;
    const files = now.codeDirty && now.files && now.entryFile && now.openFile ? { files: now.files, entry_file: now.entryFile, open: now.openFile } : null;
    const ok = keepDraft(key, now.codeDirty || now.formDirty ? { code: now.codeDirty ? now.code : null, files, filename: now.filename, name: now.name, values: now.formDirty ? now.values : null, savedAt: Date.now() } : null);
    markUnsaved(now.codeDirty || now.formDirty);
    const savedAt = now.codeDirty || now.formDirty ? Date.now() : null;
    if (ok === now.draftUnkept || (savedAt === null) !== (now.draftSavedAt === null)) set({ draftUnkept: !ok, draftSavedAt: savedAt });
  });

  /** Puts text in the editor (the service's code, an opened file), replacing what it shows: problems found in the code it replaces go (not when it is another of the component's files). */
  const loadCode = (text: string, anotherFile = false) => set((s) => ({ code: text, doc: { text, rev: (s.doc?.rev ?? 0) + 1 }, ...(anotherFile ? {} : { problems: null }) }));

  /** A deployed source's timer left unset keeps the schedule it has: not a problem of the form. */
  const keepsOwn = (name: string) => sourceNow !== null && get().values[name] === undefined && get().props.find((p) => p.name === name)?.type === '$.interface.timer';

  const showProblems = (title: string, err: unknown) => {
    const { code, props } = get();
    const errors: FieldProblem[] = err instanceof ApiError ? err.errors : [];
    // A value problem goes under its field only; the list keeps the code's problems (each message once).
    const byProp: Record<string, string> = {};
    const rest: FieldProblem[] = [];
    for (const e of errors) {
      const prop = /^configured_props\.([^.:]+)/.exec(e.path)?.[1];
      if (prop && props.some((p) => p.name === prop)) byProp[prop] ??= e.message;
      else rest.push(e);
    }
    const fields = Object.keys(byProp).length;
    set({
      warnings: err instanceof ApiError ? locateProblems(err.warnings, code).map((w) => ({ ...w, warning: true })) : [],
      problems: { title: rest.length === 0 && fields ? `${title}: ${fields === 1 ? 'a field needs' : `${fields} fields need`} attention` : title, items: locateProblems(rest, code), about: get().files ?? code },
      fieldErrors: byProp,
      showAllErrors: true,
    });
    focusFirstError(props, byProp);
  };

  /** The service's verdicts on these values, by prop (a timer a source keeps is not one). */
  const verdicts = async (props: ConfigurableProp[], values: Record<string, unknown>): Promise<Record<string, string>> => {
    const errors = await api.checkProps(props, configuredProps(props, values));
    const byProp: Record<string, string> = {};
    for (const e of errors) if (e.prop && !keepsOwn(e.prop)) byProp[e.prop] ??= e.field_message;
    return byProp;
  };

  /** Checks the code (nothing is saved) and builds the form from its props. */
  const checkNow = async (): Promise<{ c: ComponentCheckView; fresh: ConfigurableProp[]; nextValues: Record<string, unknown> } | null> => {
    set({ busy: 'check' });
    const { code, filename, values } = get();
    try {
      const c = await api.checkComponent(code, filename);
      const fresh = c.configurable_props as ConfigurableProp[];
      const nextValues = { ...initialValues(fresh), ...Object.fromEntries(Object.entries(values).filter(([k]) => fresh.some((p) => p.name === k))) };
      set({ checkedCode: code, propsCode: code, liveProblems: [], component: c, props: fresh, values: nextValues, warnings: locateProblems(c.warnings ?? [], code).map((w) => ({ ...w, warning: true })), problems: null, fieldErrors: {} });
      return { c, fresh, nextValues };
    } catch (err) {
      showProblems(err instanceof ApiError && err.errors.length ? 'The component has problems' : messageOf(err), err);
      return null;
    } finally {
      set({ busy: null });
    }
  };

  /** The check under way, if any: a deploy asked meanwhile waits for it instead of being dropped. */
  let checking: ReturnType<typeof checkNow> | null = null;
  const check = () => {
    const now = checkNow();
    checking = now;
    void now.finally(() => {
      if (checking === now) checking = null;
    });
    return now;
  };

  /** Runs the action once with the form's values and the `steps` given. */
  const testRun = async (runProps: ConfigurableProp[], runValues: Record<string, unknown>) => {
    const { origin: from, stepsInput, code, filename } = get();
    set({ busy: 'run', runStatus: 'Running…' });
    try {
      // A test run saves the code it runs (its runs are recorded under the saved component).
      const target: ConfigureTarget = from.kind === 'key' ? { id: from.component.id ?? from.key } : { component_code: code, component_filename: filename };
      const result = await api.runAction({ ...target, configured_props: configuredProps(runProps, runValues), ...(stepsInput !== undefined ? { steps: stepsInput } : {}) });
      set({ runResult: result, problems: null, fieldErrors: {}, runStatus: `Test run finished: ${result.error ? `error, ${result.error.name}: ${result.error.message}` : result.exit ? 'exited' : 'success'}` });
    } catch (err) {
      showProblems('Test run failed', err);
      if (!(err instanceof ApiError && err.errors.length)) set({ problems: { title: messageOf(err), items: [], about: get().files ?? get().code } });
      set({ runStatus: 'Test run failed' });
    } finally {
      set({ busy: null });
    }
  };

  /** Deploys a new source, saves and redeploys an existing one, or test-runs an action; answers the deployed source. */
  const deploy = async (): Promise<SourceView | null> => {
    // A check under way (started when typing stopped, or by hand) answers first; then this deploy goes on.
    if (checking) await checking;
    const s = get();
    if (s.busy) return null;
    const useCode = s.origin.kind === 'code' && (!sourceNow || s.codeDirty);
    let checked: { c: ComponentCheckView | null; fresh: ConfigurableProp[]; nextValues: Record<string, unknown> } = { c: s.component, fresh: s.props, nextValues: s.values };
    // Files are checked where they are bundled, by the service's save.
    if (useCode && !s.files && s.checkedCode !== s.code) {
      const result = await check();
      if (!result) return null;
      checked = result;
    }
    // Values the service would refuse: show them at their fields and focus the first.
    const refused = await verdicts(checked.fresh, checked.nextValues).catch(() => ({}) as Record<string, string>);
    const count = Object.keys(refused).length;
    if (count) {
      set({ checkErrors: refused, showAllErrors: true, runStatus: `${count} field${count === 1 ? '' : 's'} need attention` });
      focusFirstError(checked.fresh, refused);
      return null;
    }
    // An action is not deployed: it runs once per test run.
    if (!sourceNow && checked.c?.type === 'action') {
      await testRun(checked.fresh, checked.nextValues);
      return null;
    }
    set({ busy: 'deploy' });
    const { toast } = useApp.getState();
    try {
      const now = get();
      const body: SourceInput = { configured_props: configuredProps(now.props, now.values), ...(now.name ? { name: now.name } : {}) };
      if (useCode && !now.files) Object.assign(body, { component_code: now.code, component_filename: now.filename });
      let saved: SourceView;
      if (sourceNow) {
        const base = get().base;
        const withFiles = useCode && now.files && now.entryFile ? { ...body, files: now.files, entry_file: now.entryFile } : body;
        saved = await updateSource(sourceNow.id, { ...withFiles, ...(base ? { base_version: base.version } : {}) });
        set({ base: { version: saved.version, code: useCode ? now.code : (base?.code ?? ''), settings: JSON.stringify([saved.configured_props, saved.name]) }, newer: null });
        toast('Saved and redeployed');
      } else {
        if (now.origin.kind === 'key') Object.assign(body, now.origin.from === 'registry' ? { component_key: now.origin.key } : { component_id: now.origin.component.id ?? now.origin.key });
        if (now.origin.kind === 'url') body.component_url = now.origin.url;
        saved = await deploySource(body);
        toast(`Deployed ${saved.name}`);
      }
      // Edits made while the save was under way are not what was saved: they stay unsaved.
      const after = get();
      set({
        codeDirty: after.codeDirty && (after.files ?? after.code) !== (now.files ?? now.code),
        formDirty: after.formDirty && (after.values !== now.values || after.name !== now.name),
        problems: null,
        fieldErrors: {},
      });
      // The new source's edits are the source now: the next New source starts afresh.
      if (!sourceNow) forgetNew(key);
      return saved;
    } catch (err) {
      // Saved elsewhere since these edits began: nothing was saved; the notice offers reload, diff or overwrite.
      if (sourceNow && err instanceof ApiError && err.conflict) {
        const read = await api.getSource(sourceNow.id).catch(() => null);
        if (read) {
          set({ newer: { view: read, refused: true }, problems: null });
          return null;
        }
      }
      showProblems(sourceNow ? 'Saving failed' : 'Deploying failed', err);
      if (!(err instanceof ApiError && err.errors.length)) set({ problems: { title: messageOf(err), items: err instanceof ApiError ? runProblems(err.run) : [], about: get().files ?? get().code } });
      return null;
    } finally {
      set({ busy: null });
    }
  };

  const actions = {
    /**
     * An existing source: the code it runs (the service is the one source of truth, whoever
     * deployed it), its component's props with the dynamic ones it deployed with, and its values.
     * Loaded again when the source changes elsewhere (CLI, another window) while nothing here is edited.
     */
    async load(current: SourceView): Promise<void> {
      sourceNow = current;
      try {
        const [read, c] = await Promise.all([api.getSource(current.id), api.getComponent(current.component_id)]);
        const { codeDirty, formDirty, base } = get();
        set({ loadedFiles: read.files ? Object.fromEntries(read.files.map((f) => [f.path, f.code])) : null });
        // A version saved elsewhere: taken in when a save would replace nothing of it (it changed what
        // is not edited here, or only active or the network mode), else said, and the edits kept.
        const theirs = baseOf(read);
        const replaces = base !== null && read.version !== base.version && ((codeDirty && theirs.code !== base.code) || (formDirty && theirs.settings !== base.settings));
        if (replaces) set((s) => (s.newer?.view.version === read.version ? {} : { newer: { view: read, refused: false } }));
        else set({ base: theirs });
        // New code from elsewhere is said; a version that only switched it on or off, or renamed it, shows in place.
        if (!replaces && base !== null && read.version > base.version && theirs.code !== base.code) useApp.getState().toast(`Loaded version ${read.version} of ${read.name}, saved ${madeBy(read)}`);
        // What is edited here stays as edited: the service's code, props and values fill in the rest.
        const merged = mergeProps(c.configurable_props as ConfigurableProp[], read.dynamic_props as ConfigurableProp[] | undefined);
        if (!codeDirty) {
          const entry = read.files && read.entry_file ? read.entry_file : null;
          set({ component: c, props: merged, filename: read.filename ?? c.filename ?? 'component.mjs', checkedCode: read.code ?? null, propsCode: read.code ?? c.code ?? '', files: entry ? (read.files ?? null) : null, entryFile: entry, openFile: entry, codeIsBundle: read.code_is_bundle ?? false });
          // A registry component opens at its own file, as the registry has it; single-file code as it is.
          loadCode(entry ? openText(read.files ?? [], entry) : (read.code ?? c.code ?? ''));
        } else set({ checkedCode: read.code ?? null, ...(get().component === null ? { component: c, props: merged } : {}) });
        if (!formDirty) set({ values: initialValues(merged, read.configured_props), name: read.name });
      } catch (err) {
        useApp.getState().toast(messageOf(err), 'error');
      }
    },
    /** The inline check of the form's values: the service's own rules, asked a moment after each change. */
    async checkValues(): Promise<void> {
      const { props, values } = get();
      if (props.length === 0) return set({ checkErrors: {} });
      const byProp = await verdicts(props, values).catch(() => null);
      if (byProp && get().props === props && get().values === values) set({ checkErrors: byProp });
    },
    check,
    deploy,
    /** Keeps the edits here: the next save replaces the newer version, knowingly. */
    keepMine() {
      const newer = get().newer;
      if (newer) set({ newer: null, base: baseOf(newer.view) });
    },
    /** Replaces the newer version with the edits here now. */
    async overwrite(): Promise<void> {
      actions.keepMine();
      await deploy();
    },
    /**
     * A moment after typing stops: the code as typed is checked without saving it; its problems
     * and warnings are marked, and when its props differ from the form's the form is built anew
     * (a check, which saves the component its options are asked of). Unchanged props keep the form as it is.
     */
    async readProps(): Promise<void> {
      const s = get();
      if (s.origin.kind !== 'code' || s.busy || s.code === s.propsCode) return;
      const code = s.code;
      const lint = await api.lintComponent(code, s.filename).catch(() => null);
      const now = get();
      // Unanswered (the banner says why), typed on meanwhile, or checked by hand: this reading is old.
      if (!lint || now.code !== code || now.busy || now.propsCode === code) return;
      const warnings = locateProblems(lint.warnings, code).map((w) => ({ ...w, warning: true }));
      if (!lint.component) return set({ liveProblems: locateProblems(lint.errors, code), warnings });
      const same = now.component !== null && lint.component.type === now.component.type && JSON.stringify(lint.component.configurable_props) === JSON.stringify(now.component.configurable_props);
      if (same) set({ propsCode: code, liveProblems: [], warnings });
      else await check();
    },
    /** Puts the text typed so far in a newly shown editor (the last document put in it may be older). */
    resync() {
      const { doc, code } = get();
      if (doc && doc.text !== code) set({ doc: { text: code, rev: doc.rev + 1 } });
    },
    /** The user typed in the editor (with files, in the open one). */
    typed(code: string) {
      const { files, openFile } = get();
      set({ code, codeDirty: true, ...(files ? { files: files.map((f) => (f.path === openFile ? { ...f, code } : f)) } : {}) });
    },
    /** Shows another of the component's files in the editor (its edits stay in `files`). */
    openTab(path: string) {
      const { files } = get();
      if (!files?.some((f) => f.path === path)) return;
      set({ openFile: path });
      loadCode(openText(files, path), true);
    },
    setFilename(filename: string) {
      set({ filename });
    },
    setName(name: string) {
      set({ name, formDirty: true });
    },
    /** The form's values changed: fields edited count as touched, and their old verdicts are stale. */
    setValues(values: Record<string, unknown>) {
      const s = get();
      const changed = s.props.filter((p) => JSON.stringify(values[p.name]) !== JSON.stringify(s.values[p.name])).map((p) => p.name);
      const without = (errors: Record<string, string>) => Object.fromEntries(Object.entries(errors).filter(([k]) => !changed.includes(k)));
      set({
        values,
        formDirty: true,
        ...(changed.length ? { touched: new Set([...s.touched, ...changed]), checkErrors: without(s.checkErrors) } : {}),
        ...(changed.some((n) => s.fieldErrors[n]) ? { fieldErrors: without(s.fieldErrors) } : {}),
      });
    },
    setProps(props: ConfigurableProp[]) {
      set({ props });
    },
    setStepsInput(stepsInput: Record<string, unknown> | undefined) {
      set({ stepsInput });
    },
    clearRunResult() {
      set({ runResult: null });
    },
    reveal(line: number) {
      set({ reveal: { line, at: Date.now() } });
    },
    /** Opens a component file from disk into the editor. */
    async open(file: File): Promise<void> {
      loadCode(await file.text());
      set({ filename: /\.(ts|mts)$/.test(file.name) ? 'component.ts' : /\.cjs$/.test(file.name) ? 'component.cjs' : 'component.mjs', codeDirty: true });
    },
    /** Drops the unsaved edits: the source's code and values as deployed (or the start of a new source) come back. */
    async discard(): Promise<void> {
      set({ ...initialState(sourceNow, origin), doc: { text: origin.kind === 'code' ? origin.code : '', rev: (get().doc?.rev ?? 0) + 1 } });
      if (sourceNow) {
        set({ doc: null });
        await actions.load(sourceNow);
      }
    },
    /** A chosen component's code as a copy to edit: deployed as new code, not as the component chosen. */
    editCopy() {
      const { origin: from } = get();
      if (from.kind !== 'key') return;
      set({ origin: { kind: 'code', code: from.code, filename: from.filename }, codeDirty: true, component: null, checkedCode: null });
      loadCode(from.code);
    },
    /** Leaves a registry key or URL for code typed here. */
    writeCode() {
      const start = origin.kind === 'code' ? origin.code : '';
      set({ origin: { kind: 'code', code: start, filename: 'component.mjs' } });
      loadCode(start);
    },
  };
  return { store, actions };
}

export type EditorActions = ReturnType<typeof createEditorStore>['actions'];

/** Which drafts have unsaved edits (kept in this browser, from earlier visits too): the source list marks them. */
export const useUnsaved = create<{ keys: Set<string> }>(() => ({ keys: new Set(keptDraftKeys()) }));

/** The drafts of this window: one per source and per new-source origin, alive until discarded or saved. */
const drafts = new Map<string, ReturnType<typeof createEditorStore>>();

/** The key of a draft: `source:dc_…`, or `new:` and where the new source starts from. */
export function draftKey(source: SourceView | null, origin: Origin): string {
  if (source) return `source:${source.id}`;
  return origin.kind === 'key' ? `new:${origin.from}:${origin.key}` : origin.kind === 'url' ? `new:url:${origin.url}` : `new:${origin.filename}:${hashOf(origin.code)}`;
}

/** A short stable hash of a text (a template's code names the new-source draft made from it). */
function hashOf(text: string): string {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(31, h) + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}

/** The draft for a source (or a new source from `origin`): the one already open, or a new one (with its kept edits). */
export function editorFor(source: SourceView | null, origin: Origin) {
  const key = draftKey(source, origin);
  let entry = drafts.get(key);
  if (!entry) drafts.set(key, (entry = createEditorStore(key, source, origin)));
  const line = source && pendingReveal.get(source.id);
  if (source && line) {
    pendingReveal.delete(source.id);
    entry.actions.reveal(line);
  }
  return entry;
}

/** A line to show in a source's editor once it is open (a stack frame was followed). */
const pendingReveal = new Map<string, number>();

/** Shows `line` in a source's editor: now if its editor is open, else as soon as it is. */
export function revealInEditor(sourceId: string, line: number): void {
  const open = drafts.get(`source:${sourceId}`);
  if (open) open.actions.reveal(line);
  else pendingReveal.set(sourceId, line);
}

/** Forgets a source's draft (the source was deleted). */
export function dropDraft(sourceId: string): void {
  drafts.delete(`source:${sourceId}`);
  useUnsaved.setState((u) => ({ keys: new Set([...u.keys].filter((k) => k !== `source:${sourceId}`)) }));
  keepDraft(`source:${sourceId}`, null);
}

/** A new source's draft once it is deployed: the edits live on as the source's. */
function forgetNew(key: string): void {
  drafts.delete(key);
}

/**
 * What the form's options and additionalProps are asked of: a deployed source running the code
 * shown, the component chosen, else the code last checked (not saved; typing that keeps the props
 * as they are does not change it, so option lists are not read again at each pause).
 */
export function configureTarget(s: Pick<EditorState, 'origin' | 'component' | 'checkedCode' | 'filename'>, source: SourceView | null): ConfigureTarget | null {
  const { origin, component } = s;
  if (source && (!component || component.id === source.component_id)) return { id: source.id };
  if (origin.kind === 'key') return { id: origin.from === 'registry' ? origin.key : (origin.component.id ?? origin.key) };
  return origin.kind === 'code' && s.checkedCode !== null ? { component_code: s.checkedCode, component_filename: s.filename } : null;
}

/** The problems each field shows: the last answer's, and the inline check's once touched (all after a deploy attempt). */
export function shownErrors(s: Pick<EditorState, 'fieldErrors' | 'checkErrors' | 'showAllErrors' | 'touched'>): Record<string, string> {
  const shown: Record<string, string> = { ...s.fieldErrors };
  for (const [name, message] of Object.entries(s.checkErrors)) if (s.showAllErrors || s.touched.has(name)) shown[name] ??= message;
  return shown;
}

/** The last refusal's problems are about code since typed on (the files, with several: switching file is no edit). */
export function problemsStale(s: Pick<EditorState, 'problems' | 'files' | 'code'>): boolean {
  return s.problems !== null && s.problems.about !== (s.files ?? s.code);
}
