import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import type { ComponentView } from '../../../../runtime/contract/component-api';
import type { SourceView } from '../../../../runtime/contract/source-api';
import { useConnection } from '../../api/client';
import { useRoute } from '../../app/router';
import { CodeEditor } from '../../ui/code-editor/CodeEditor';
import { madeBy, VersionNotice } from '../../ui/VersionNotice';
import { StepsField } from '../actions/StepsField';
import { PropForm } from '../props/PropForm';
import { ActionRunResult } from './ActionRunResult';
import { DiscardDialog } from './DiscardDialog';
import { configureTarget, editorFor, shownErrors as errorsShown, type Origin, problemsStale } from './editor-store';
import { FileSetViewer, FileTabs, languageOf } from './FileTabs';
import { ProblemList } from './ProblemList';
import { toMarkers } from './problems';

export type { Origin };

/** The code is read for its props once typing pauses this long. */
const READ_PROPS_DELAY_MS = 700;

/**
 * Creates or edits a source: the code in monaco, checked by the service (`POST /v1/components/check`,
 * problems shown inline and listed), the prop form generated from its `configurable_props`, then
 * deploy (`POST /v1/sources`) or save-to-redeploy (`PUT /v1/sources/{id}`). When the service says
 * the new code is an action (`type: "action"`), it is test-run instead (`POST /v1/actions/run`),
 * with an optional `steps` object, and the run's output is shown below the code. The state and
 * what it does live in the editor's store (editor-store.ts).
 */
export function SourceEditor({ source, origin: initialOrigin, onTypeChange }: { source: SourceView | null; origin: Origin; onTypeChange?(type: ComponentView['type'] | null): void }) {
  const navigate = useRoute((s) => s.navigate);
  const { store, actions } = editorFor(source, initialOrigin);
  const s = useStore(store);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const { origin, doc, filename, codeDirty, formDirty, draftUnkept, name, component, props, values, problems, warnings, busy, stepsInput, runResult, runStatus, reveal, newer, base } = s;

  const dirty = codeDirty || formDirty;
  // The form shows the props of the code last read: typed code may have others until it is read again
  // (a moment after typing stops), or for as long as it has problems or the service does not answer.
  const staleProps = origin.kind === 'code' && codeDirty && s.propsCode !== null && s.propsCode !== s.code && busy !== 'check';
  const liveProblems = s.liveProblems;
  const reachable = useConnection((c) => c.reachable);
  // Saving before the source's code has loaded would deploy an empty editor's worth of nothing.
  const codeMissing = source !== null && origin.kind === 'code' && doc === null;
  // Shown again: the editor starts from the text typed so far, not the last text put in it.
  useEffect(() => actions.resync(), [actions]);
  // A draft the browser could not keep is lost by a reload or closing the window: ask first.
  useEffect(() => {
    if (!dirty || !draftUnkept) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty, draftUnkept]);

  useEffect(() => {
    if (source) void actions.load(source);
    // Loaded per source and per version of it (updated_at: a change by the service itself); local edits are never overwritten.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source?.id, source?.version, source?.updated_at]);
  // The code could not load while the service did not answer: it loads once the service does.
  useEffect(() => {
    if (source && reachable && codeMissing) void actions.load(source);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reachable]);

  // The form follows the code: read a moment after typing stops (a new source's template too).
  // A file of several is not a component alone: the service checks them together when they are saved.
  const readable = origin.kind === 'code' && (codeDirty || !source) && doc !== null && s.files === null;
  useEffect(() => {
    if (!readable) return;
    const timer = setTimeout(() => void actions.readProps(), READ_PROPS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [readable, s.code, component, actions]);

  // Inline validation, a moment after each change of the form.
  useEffect(() => {
    const timer = setTimeout(() => void actions.checkValues(), 250);
    return () => clearTimeout(timer);
  }, [props, values, actions]);

  const deploy = async () => {
    const saved = await actions.deploy();
    if (saved && !source) navigate(`/sources/${encodeURIComponent(saved.id)}`);
  };

  const shownErrors = errorsShown(s);
  const isAction = !source && component?.type === 'action';
  const componentType = component?.type ?? null;
  useEffect(() => onTypeChange?.(componentType), [componentType, onTypeChange]);
  // With several files, a problem at `file:line:col` is marked in that file only.
  const inOpenFile = (p: { path: string }) => !s.files || !/:\d+:\d+$/.test(p.path) || p.path.startsWith(`${s.openFile}:`);
  // Typed on since the service refused the code: its list is about older code, and the marks come from reading the code as typed.
  const stale = problemsStale(s);
  const markers = useMemo(() => toMarkers([...(problems && !stale ? problems.items : liveProblems), ...warnings].filter(inOpenFile)), [problems, stale, liveProblems, warnings, s.files, s.openFile]);
  const { files, entryFile, openFile } = s;
  const edited = useMemo(() => new Set((files ?? []).filter((f) => f.code !== s.loadedFiles?.[f.path]).map((f) => f.path)), [files, s.loadedFiles]);
  // One object per target: the options lists load again only when it changes.
  const target = configureTarget({ origin, component, checkedCode: s.checkedCode, filename }, source);
  const targetText = JSON.stringify(target);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const formTarget = useMemo(() => target, [targetText]);

  return (
    <div className="source-editor" role="region" aria-label={source ? 'Edit source' : 'Create source'}>
      <div className="editor-pane">
        {newer && base && (
          <VersionNotice what="source" newer={newer.view} base={base.version} refused={newer.refused} busy={busy !== null} diff={{ theirs: newer.view.code ?? '', mine: s.code }} onReload={() => void actions.discard()} onKeepMine={actions.keepMine} onOverwrite={() => void actions.overwrite()} />
        )}
        {origin.kind === 'code' ? (
          <>
            {s.codeIsBundle && (
              <p className="notice" data-testid="bundle-note">
                This source was deployed from the registry by an older Spout, which kept only the bundle it runs: the code below is that bundle (the registry&rsquo;s files inlined, comments dropped). Deploy the registry component <code>{component?.key ?? ''}</code> again to see and edit its original
                files.
              </p>
            )}
            {files && entryFile && openFile ? (
              <FileTabs files={files} entry={entryFile} open={openFile} edited={edited} onOpen={actions.openTab} />
            ) : (
              <div className="toolbar">
                <label htmlFor="code-language">Language</label>
                <select id="code-language" value={languageOf(filename) === 'typescript' ? 'component.ts' : filename === 'component.cjs' ? 'component.cjs' : 'component.mjs'} onChange={(e) => actions.setFilename(e.target.value)}>
                  <option value="component.mjs">JavaScript (ESM)</option>
                  <option value="component.cjs">JavaScript (CommonJS)</option>
                  <option value="component.ts">TypeScript</option>
                </select>
                <label className="file-button">
                  Open file…
                  <input type="file" accept=".js,.mjs,.cjs,.ts,.mts" className="sr-only" aria-label="Open a component file" onChange={(e) => e.target.files?.[0] && void actions.open(e.target.files[0])} />
                </label>
                {source && (
                  <span className="muted version-label" data-testid="source-version" title={`Version ${source.version} of ${source.name}, saved ${madeBy(source)}`}>
                    v{source.version}
                  </span>
                )}
                <span className="grow" />
                <button type="button" onClick={() => void actions.check()} disabled={busy !== null}>
                  {busy === 'check' ? 'Checking…' : 'Check code & load props'}
                </button>
              </div>
            )}
            {doc ? (
              <CodeEditor document={doc} language={languageOf(openFile ?? filename)} markers={markers} props={props} revealLine={reveal} onChange={actions.typed} onSave={() => void deploy()} />
            ) : (
              <p className="empty code-loading" role="status">
                {reachable ? 'Loading the source\u2019s code…' : 'The source\u2019s code cannot load: the service is not answering. It loads as soon as the service is back; saving waits until then.'}
              </p>
            )}
          </>
        ) : (
          <div className="origin-box">
            {origin.kind === 'key' ? (
              <>
                <div className="row wrap">
                  <p className="grow">
                    {origin.from === 'registry' ? 'Registry component' : 'Saved component'} <code>{origin.key}</code>: <strong>{origin.component.name}</strong> {origin.component.version}
                    {origin.component.description && <> — {origin.component.description}</>}
                  </p>
                  <button type="button" onClick={actions.editCopy}>
                    Edit a copy
                  </button>
                </div>
                <p className="muted small-note">
                  {origin.component.type === 'action'
                    ? `Test-run as it is (actions are not deployed); its ${origin.files ? 'files are' : 'code is'} shown read-only. Edit a copy to change it.`
                    : origin.files
                      ? 'Deployed as it is; its files are shown read-only here and can be edited once it is deployed. Edit a copy makes one file of them (bundled) to change before deploying.'
                      : 'Deployed as it is; its code is shown read-only. Edit a copy to change it.'}
                </p>
                {origin.files && origin.entry_file ? (
                  <FileSetViewer files={origin.files} entry={origin.entry_file} props={props} onSave={() => void deploy()} />
                ) : (
                  <CodeEditor document={{ text: origin.code, rev: 0 }} language={languageOf(origin.filename)} markers={[]} props={props} readOnly onChange={() => undefined} onSave={() => void deploy()} />
                )}
              </>
            ) : (
              <>
                <p>
                  Component from <code>{origin.url}</code>. The service fetches and validates it when you deploy.
                </p>
                <button type="button" onClick={actions.writeCode}>
                  Write code instead
                </button>
              </>
            )}
          </div>
        )}
        {problems && <ProblemList title={problems.title} problems={problems.items} stale={stale} onReveal={actions.reveal} />}
        {warnings.length > 0 && <ProblemList title={`${warnings.length} warning${warnings.length === 1 ? '' : 's'}: the component runs, but does not follow these rules`} problems={warnings} warnings onReveal={actions.reveal} />}
        {isAction && runResult && <ActionRunResult result={runResult} onClear={actions.clearRunResult} />}
      </div>
      <div className="config-pane">
        {isAction ? (
          <p className="notice" data-testid="action-notice">
            <strong>{component?.name}</strong> is an action: actions are not deployed; they are saved and test-run, once per click, with <code>$.context.JIT</code> true. Saved actions can be steps of a workflow.
          </p>
        ) : (
          <div className="field">
            <label htmlFor="source-name">Source name</label>
            <input id="source-name" value={name} placeholder={component?.name ?? 'from the component'} onChange={(e) => actions.setName(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && void deploy()} />
          </div>
        )}
        <h2 className="pane-title">Props</h2>
        {staleProps && (liveProblems.length > 0 || !reachable) && (
          <p className="notice" role="status" data-testid="props-stale">
            {liveProblems.length > 0 ? `The code has ${liveProblems.length === 1 ? 'a problem' : `${liveProblems.length} problems`} (marked in the editor); the props shown are from the code last read. ` : 'The service is not answering: the props shown are from the code last read. '}
            {reachable && (
              <>
                <button type="button" className="link-button" onClick={() => void actions.check()}>
                  Check the code
                </button>{' '}
                lists them.
              </>
            )}
          </p>
        )}
        {props.length === 0 && !component ? <p className="empty">Check the code to see its props here.</p> : <PropForm props={props} values={values} configureTarget={formTarget} source={source} errors={shownErrors} onChange={actions.setValues} onPropsChange={actions.setProps} />}
        {isAction && <StepsField value={stepsInput} onChange={actions.setStepsInput} />}
        <p className="sr-only" role="status">
          {runStatus}
        </p>
      </div>
      {/* Below both columns (or the stacked editor and props): on screen however tall the form is. */}
      <div className="row end sticky-actions">
        {dirty ? (
          <>
            <span className="draft-state" data-testid="draft-state" title={draftUnkept ? 'This browser refused to keep the edits: a reload would lose them' : 'Kept in this browser until saved or discarded'}>
              <span aria-hidden="true">● </span>
              {draftUnkept ? 'Unsaved changes (not kept across a reload)' : 'Unsaved changes'}
              {codeDirty && source ? <span className="sr-only">: code changed</span> : null}
            </span>
            <button type="button" className="small" onClick={() => setConfirmDiscard(true)} disabled={busy !== null}>
              Discard changes…
            </button>
          </>
        ) : (
          <span className="muted">{source ? 'Ctrl+S saves' : isAction ? 'Ctrl+S runs' : 'Ctrl+S deploys'}</span>
        )}
        <button type="button" className="primary" disabled={busy === 'deploy' || busy === 'run' || codeMissing} title={codeMissing ? 'The source\u2019s code has not loaded yet' : undefined} onClick={() => void deploy()}>
          {isAction ? (busy === 'run' ? 'Running…' : 'Test run') : busy === 'deploy' ? (source ? 'Saving…' : 'Deploying…') : source ? 'Save & redeploy' : 'Deploy'}
        </button>
      </div>
      {confirmDiscard && <DiscardDialog body={source ? `The code and settings go back to what ${source.name} runs now.` : 'The editor goes back to where this new source started.'} onDiscard={() => void actions.discard()} onClose={() => setConfirmDiscard(false)} />}
    </div>
  );
}
