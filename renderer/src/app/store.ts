import { create } from 'zustand';
import type { AccountView, ComponentView, DataStoreView } from '../../../runtime/contract/component-api';
import type { SourceView } from '../../../runtime/contract/source-api';
import type { WebhookView } from '../../../runtime/contract/webhook-api';
import type { WorkflowView } from '../../../runtime/contract/workflow-api';
import { messageOf, ServiceUnreachable } from '../api/client';
import { api } from '../api/v1';

interface Toast {
  id: number;
  kind: 'ok' | 'error';
  text: string;
}

interface AppState {
  sources: SourceView[];
  sourcesLoaded: boolean;
  webhooks: WebhookView[];
  webhooksLoaded: boolean;
  accounts: AccountView[];
  dataStores: DataStoreView[];
  workflows: WorkflowView[];
  workflowsLoaded: boolean;
  /** Saved components (`GET /v1/users/me/components`), newest first. */
  components: ComponentView[];
  error: string | null;
  toasts: Toast[];
  loadSources(): Promise<void>;
  loadWebhooks(): Promise<void>;
  loadAccounts(): Promise<void>;
  loadDataStores(): Promise<void>;
  loadWorkflows(): Promise<void>;
  loadComponents(): Promise<void>;
  /** Puts a created or updated workflow in the list. */
  upsertWorkflow(workflow: WorkflowView): void;
  removeWorkflow(id: string): void;
  /** Puts a deployed or updated source in the list. */
  upsertSource(source: SourceView): void;
  removeSource(id: string): void;
  toast(text: string, kind?: Toast['kind']): void;
  dismiss(id: number): void;
}

let toastId = 0;

/** What a failed load shows: nothing of its own when the service is unreachable (the banner says so, and what was loaded stays). */
const loadError = (err: unknown) => (err instanceof ServiceUnreachable ? null : messageOf(err));

/** The UI's shared state: what the service holds (sources, webhooks, accounts, stores) and notices. */
export const useApp = create<AppState>((set, get) => ({
  sources: [],
  sourcesLoaded: false,
  webhooks: [],
  webhooksLoaded: false,
  accounts: [],
  dataStores: [],
  workflows: [],
  workflowsLoaded: false,
  components: [],
  error: null,
  toasts: [],

  /** Sources with their recent work (last event, errors): one request whatever their number. */
  async loadSources() {
    try {
      set({ sources: await api.listSources(), sourcesLoaded: true, error: null });
    } catch (err) {
      set({ error: loadError(err) });
    }
  },

  async loadWebhooks() {
    try {
      set({ webhooks: await api.listWebhooks(), webhooksLoaded: true });
    } catch (err) {
      set({ error: loadError(err) });
    }
  },

  async loadAccounts() {
    try {
      set({ accounts: await api.listAccounts() });
    } catch (err) {
      set({ error: loadError(err) });
    }
  },

  async loadDataStores() {
    try {
      set({ dataStores: await api.listDataStores() });
    } catch (err) {
      set({ error: loadError(err) });
    }
  },

  async loadWorkflows() {
    try {
      set({ workflows: await api.listWorkflows(), workflowsLoaded: true });
    } catch (err) {
      set({ error: loadError(err) });
    }
  },

  async loadComponents() {
    try {
      set({ components: await api.listComponents() });
    } catch (err) {
      set({ error: loadError(err) });
    }
  },

  upsertWorkflow(workflow) {
    const list = get().workflows;
    set({ workflows: list.some((w) => w.id === workflow.id) ? list.map((w) => (w.id === workflow.id ? workflow : w)) : [workflow, ...list] });
  },

  removeWorkflow(id) {
    set({ workflows: get().workflows.filter((w) => w.id !== id) });
  },

  upsertSource(source) {
    const rest = get().sources.filter((s) => s.id !== source.id);
    const index = get().sources.findIndex((s) => s.id === source.id);
    // A write's answer carries no activity: the list keeps what it read until its next refresh.
    const kept = (s: SourceView): SourceView => ({ ...source, activity: source.activity ?? s.activity });
    set({ sources: index === -1 ? [source, ...rest] : get().sources.map((s) => (s.id === source.id ? kept(s) : s)) });
  },

  removeSource(id) {
    set({ sources: get().sources.filter((s) => s.id !== id) });
  },

  toast(text, kind = 'ok') {
    // An unreachable service is shown once, by the banner, not by a toast per failed call.
    if (kind === 'error' && text === new ServiceUnreachable().message) return;
    const id = ++toastId;
    set({ toasts: [...get().toasts, { id, kind, text }] });
    setTimeout(() => get().dismiss(id), kind === 'error' ? 8000 : 4000);
  },

  dismiss(id) {
    set({ toasts: get().toasts.filter((t) => t.id !== id) });
  },
}));
