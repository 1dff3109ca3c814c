// The Actions screens' data (docs/desktop-and-ui.md): the saved actions with their versions and
// last runs, one action's version as an editor draft, saving a version, the props read from code
// without saving it, what a save hands to the saved version's page, and the action's MCP tool.
import { useCallback, useState } from 'react';
import type { SavedActionView } from '../../../../runtime/contract/action-api';
import type { ComponentView } from '../../../../runtime/contract/component-api';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import { messageOf } from '../../api/client';
import { usePoll } from '../../api/use-poll';
import { api } from '../../api/v1';
import { useApp } from '../../app/store';
import { initialValues } from '../props/prop-values';
import { type EditorActions, type EditorState, type EditorStore, editorFor, type Origin } from '../sources/editor-store';
import { locateProblems } from '../sources/problems';

/** Lists and pages are read again this often: saves and runs from the CLI, MCP or a workflow show up. */
const EVERY_MS = 4000;

/** Where an action's page is: by key, or by component id for a keyless one. */
export const actionPath = (c: Pick<ComponentView, 'key' | 'id'>) => `/actions/${encodeURIComponent(c.key ?? c.id)}`;

/** The saved actions, newest saved first, each with its versions and last run. */
export function useSavedActions() {
  const read = usePoll('actions', () => api.listActions(), EVERY_MS);
  return { actions: read.data, error: read.error };
}

/** The editor's start for a version: a registry file read-only (run by its id), the user's own code editable. */
function originOf(c: ComponentView, registry: boolean): Origin {
  const code = c.code ?? '';
  const filename = c.filename ?? 'component.mjs';
  return registry ? { kind: 'key', key: c.id, from: 'registry', component: c, code, filename } : { kind: 'code', code, filename };
}

/**
 * One action by key or by a version's id (a registry key is saved when first opened), and the
 * version shown: the one whose id is in the address, else the newest.
 */
export function useSavedAction(ref: string) {
  const summary = usePoll(ref, () => api.getAction(ref), EVERY_MS);
  const action = summary.data;
  const shownId = /^sc_/.test(ref) ? ref : (action?.id ?? null);
  const version = usePoll(shownId, async () => {
    const c = await api.getComponent(shownId as string);
    return { component: c, origin: originOf(c, action?.versions.find((v) => v.id === c.id)?.registry ?? false) };
  });
  return { action, shown: version.data, error: summary.error ?? version.error, reload: summary.reload };
}

/** A saved action by component id (a workflow's first step). */
export function useActionComponent(id: string) {
  const read = usePoll(id, () => api.getComponent(id));
  return { component: read.data, error: read.error };
}

/** What a save hands to the page of the version it saved: the form's values, the `steps` input and the run's result. */
type Carried = Pick<EditorState, 'values' | 'stepsInput' | 'runResult'>;
const carried = new Map<string, Carried>();

/**
 * The editor draft of a version (the same one while the window lives). A fresh one starts with
 * the version's props; one that a save moved here gets the values and result it had.
 */
export function actionDraft(origin: Origin, component: ComponentView | null) {
  const draft = editorFor(null, origin);
  const s = draft.store.getState();
  if (component && origin.kind === 'code' && s.component === null && !s.codeDirty) {
    const props = component.configurable_props as ConfigurableProp[];
    const warnings = locateProblems(component.warnings ?? [], s.code).map((w) => ({ ...w, warning: true }));
    draft.store.setState({ component, props, values: initialValues(props), warnings, checkedCode: s.code, propsCode: s.code });
  }
  const handed = component && carried.get(component.id);
  if (handed) {
    carried.delete(component.id);
    draft.store.setState(handed);
  }
  return draft;
}

/** Hands the draft's values, `steps` input and last result to the page of the version saved from it. */
export function handOver(store: EditorStore, componentId: string): void {
  const { values, stepsInput, runResult } = store.getState();
  carried.set(componentId, { values, stepsInput, runResult });
}

/**
 * Checks the draft's code (its problems listed as the source editor lists them), then saves it as a
 * version of the action (`POST /v1/components`; the same code is the same version). Null when the
 * service refused it or the code is a source.
 */
export async function saveAction(store: EditorStore, actions: EditorActions): Promise<ComponentView | null> {
  const checked = await actions.check();
  if (!checked) return null;
  if (checked.c.type !== 'action') {
    store.setState({ problems: { title: `"${checked.c.name}" is a source, not an action: add type: "action" to its definition, or deploy it from Sources → New source`, items: [], about: store.getState().code } });
    return null;
  }
  const { code, filename } = store.getState();
  try {
    const saved = await api.saveComponent(code, filename);
    store.setState({ component: saved, codeDirty: false });
    return saved;
  } catch (err) {
    store.setState({ problems: { title: `${checked.c.name} was not saved: ${messageOf(err)}. Try Save again.`, items: [], about: code } });
    return null;
  }
}

/**
 * Reads the props the typed code declares without saving it (`POST /v1/components/lint`): an action
 * is saved only when asked to. Marks the code's problems; answers what the code declares.
 */
export async function readActionProps(store: EditorStore): Promise<{ name: string; type: 'source' | 'action' } | null> {
  const s = store.getState();
  if (s.origin.kind !== 'code' || s.busy) return null;
  const { code, filename } = s;
  const lint = await api.lintComponent(code, filename).catch(() => null);
  const now = store.getState();
  // Unanswered (the banner says why), or typed on meanwhile: this reading is old.
  if (!lint || now.code !== code) return null;
  const warnings = locateProblems(lint.warnings, code).map((w) => ({ ...w, warning: true }));
  if (!lint.component) {
    store.setState({ liveProblems: locateProblems(lint.errors, code), warnings });
    return null;
  }
  const props = lint.component.configurable_props;
  const same = JSON.stringify(props) === JSON.stringify(now.props);
  const kept = Object.fromEntries(Object.entries(now.values).filter(([k]) => props.some((p) => p.name === k)));
  store.setState({ propsCode: code, liveProblems: [], warnings, ...(same ? {} : { props, values: { ...initialValues(props), ...kept } }) });
  return { name: lint.component.name, type: lint.component.type };
}

/** The action's MCP tool (every saved action is one unless hidden, docs/mcp.md) and a switch for it, which shows the change at once (as Settings → MCP does). */
export function useMcpTool(action: SavedActionView | null) {
  const tools = usePoll('mcp-tools', () => api.listMcpTools(), EVERY_MS);
  const [wanted, setWanted] = useState<boolean | null>(null);
  const tool = action ? (tools.data?.find((t) => t.ref === action.ref || (t.component_id !== null && action.versions.some((v) => v.id === t.component_id))) ?? null) : null;
  const { reload } = tools;
  const setExposed = useCallback(
    async (exposed: boolean) => {
      if (!action) return;
      setWanted(exposed);
      try {
        const { hidden_actions } = await api.getMcpSettings();
        const others = hidden_actions.filter((h) => h !== action.ref && !action.versions.some((v) => v.id === h));
        await api.putMcpSettings({ hidden_actions: exposed ? others : [...others, action.ref] });
        await reload();
      } catch (err) {
        useApp.getState().toast(`${action.name} was not changed in the MCP tools: ${messageOf(err)}. Try again, or use Settings → MCP.`, 'error');
      } finally {
        setWanted(null);
      }
    },
    [action, reload],
  );
  return { tool: tool && wanted !== null ? { ...tool, exposed: wanted } : tool, loaded: tools.data !== null, error: tools.error, setExposed };
}
