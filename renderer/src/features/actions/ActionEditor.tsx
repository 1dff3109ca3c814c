import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import type { ComponentView } from '../../../../runtime/contract/component-api';
import { useApp } from '../../app/store';
import { CodeEditor } from '../../ui/code-editor/CodeEditor';
import { PropForm } from '../props/PropForm';
import { ActionRunResult } from '../sources/ActionRunResult';
import { DiscardDialog } from '../sources/DiscardDialog';
import type { Origin } from '../sources/editor-store';
import { configureTarget, shownErrors } from '../sources/editor-store';
import { ProblemList } from '../sources/ProblemList';
import { toMarkers } from '../sources/problems';
import { actionDraft, handOver, readActionProps, saveAction } from './action-data';
import { StepsField } from './StepsField';

/** The code is read for its props once typing pauses this long (as the source editor does). */
const READ_PROPS_DELAY_MS = 700;

/**
 * An action's editor: its code (the user's own, editable; a registry file, read-only with "Edit a
 * copy"), the props form, Save (a new version: `POST /v1/components`) and Test run (`POST
 * /v1/actions/run`, saving first), the run's result below the code. Actions are never deployed.
 * `onSaved` gets the version saved (the page moves to it when it is another one).
 */
export function ActionEditor({ origin: start, component: startComponent, onSaved }: { origin: Origin; component: ComponentView | null; onSaved(c: ComponentView): void }) {
  const { store, actions } = actionDraft(start, startComponent);
  const s = useStore(store);
  const toast = useApp((a) => a.toast);
  const [declared, setDeclared] = useState<{ name: string; type: 'source' | 'action' } | null>(null);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const { origin, doc, filename, codeDirty, component, props, values, problems, warnings, busy, stepsInput, runResult, runStatus, reveal, liveProblems } = s;
  const editable = origin.kind === 'code';

  useEffect(() => actions.resync(), [actions]);
  // The form follows the code a moment after typing stops, without saving it.
  useEffect(() => {
    if (!editable || s.code === s.propsCode) return;
    const timer = setTimeout(() => void readActionProps(store).then((d) => d && setDeclared(d)), READ_PROPS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [editable, s.code, s.propsCode, store]);
  useEffect(() => {
    const timer = setTimeout(() => void actions.checkValues(), 250);
    return () => clearTimeout(timer);
  }, [props, values, actions]);

  const markers = useMemo(() => toMarkers([...(problems?.items ?? liveProblems), ...warnings]), [problems, liveProblems, warnings]);
  const isSource = declared?.type === 'source' && s.propsCode === s.code;

  const save = async (): Promise<ComponentView | null> => {
    const c = await saveAction(store, actions);
    if (c) toast(`Saved ${c.name} ${c.version}`);
    return c;
  };
  /** Saves the typed code first when it is not saved yet (a run is always of a saved version), then runs it once. */
  const run = async () => {
    const saved = !codeDirty && typeof component?.id === 'string' && s.checkedCode === s.code;
    const c = editable && !saved ? await save() : null;
    if (editable && !saved && !c) return;
    await actions.deploy();
    if (c) {
      handOver(store, c.id);
      onSaved(c);
    }
  };
  const saveOnly = async () => {
    const c = await save();
    if (c) {
      handOver(store, c.id);
      onSaved(c);
    }
  };

  return (
    <div className="source-editor action-editor" role="region" aria-label="Action editor">
      <div className="editor-pane">
        {editable ? (
          <div className="toolbar">
            <label className="file-button">
              Open file…
              <input type="file" accept=".js,.mjs,.cjs,.ts,.mts" className="sr-only" aria-label="Open an action file" onChange={(e) => e.target.files?.[0] && void actions.open(e.target.files[0])} />
            </label>
            <span className="muted small-note">{filename}</span>
            <span className="grow" />
            {codeDirty ? (
              <>
                <span className="draft-state" data-testid="draft-state">
                  <span aria-hidden="true">● </span>Unsaved changes
                </span>
                <button type="button" className="small" onClick={() => setConfirmDiscard(true)} disabled={busy !== null}>
                  Discard changes…
                </button>
              </>
            ) : (
              <span className="muted small-note">Ctrl+S saves</span>
            )}
          </div>
        ) : (
          <div className="row wrap origin-box">
            <p className="grow muted small-note" data-testid="registry-note">
              Registry action: its code is shown read-only. Actions are not deployed: they are saved and test-run. Edit a copy to change it (saved as your own version).
            </p>
            <button type="button" onClick={actions.editCopy}>
              Edit a copy
            </button>
          </div>
        )}
        {doc && (
          <CodeEditor
            key={editable ? 'edit' : 'read-only'}
            document={editable ? doc : { text: origin.kind === 'key' ? origin.code : '', rev: 0 }}
            language={/\.(ts|mts|cts)$/.test(filename) ? 'typescript' : 'javascript'}
            markers={markers}
            props={props}
            revealLine={reveal}
            readOnly={!editable}
            onChange={actions.typed}
            onSave={() => editable && void saveOnly()}
          />
        )}
        {isSource && (
          <p className="notice" role="status" data-testid="not-an-action">
            This code declares a source (no <code>type: &quot;action&quot;</code>): it cannot be saved or run as an action. Add <code>type: &quot;action&quot;</code>, or deploy it from Sources → New source.
          </p>
        )}
        {problems && <ProblemList title={problems.title} problems={problems.items} onReveal={actions.reveal} />}
        {warnings.length > 0 && <ProblemList title={`${warnings.length} warning${warnings.length === 1 ? '' : 's'}: the action runs, but does not follow these rules`} problems={warnings} warnings onReveal={actions.reveal} />}
        {runResult && <ActionRunResult result={runResult} onClear={actions.clearRunResult} />}
      </div>
      <div className="config-pane">
        <h2 className="pane-title">Props</h2>
        {props.length === 0 ? (
          <p className="empty">{s.propsCode === null ? 'Reading the code for its props…' : 'This action has no props to fill in.'}</p>
        ) : (
          <PropForm
            props={props}
            values={values}
            configureTarget={editable ? (s.propsCode !== null ? { component_code: s.propsCode, component_filename: filename } : null) : configureTarget(s, null)}
            source={null}
            errors={shownErrors(s)}
            onChange={actions.setValues}
            onPropsChange={actions.setProps}
          />
        )}
        <StepsField value={stepsInput} onChange={actions.setStepsInput} />
        <p className="sr-only" role="status">
          {runStatus}
        </p>
        <div className="row end sticky-actions">
          {editable && (
            <button type="button" onClick={() => void saveOnly()} disabled={busy !== null || isSource}>
              {busy === 'check' ? 'Saving…' : 'Save'}
            </button>
          )}
          <button type="button" className="primary" onClick={() => void run()} disabled={busy !== null || isSource}>
            {busy === 'run' ? 'Running…' : 'Test run'}
          </button>
        </div>
      </div>
      {confirmDiscard && <DiscardDialog body="The code goes back to this version's." onDiscard={() => void actions.discard()} onClose={() => setConfirmDiscard(false)} />}
    </div>
  );
}
