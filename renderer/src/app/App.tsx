import { type ReactNode, useEffect, useRef } from 'react';
import { useConnection } from '../api/client';
import { ActionsScreen } from '../features/actions/ActionsScreen';
import { DataStoresScreen } from '../features/data-stores/DataStoresScreen';
import { Shortcuts } from '../features/palette/Shortcuts';
import { SettingsScreen } from '../features/settings/SettingsScreen';
import { SourcesScreen } from '../features/sources/SourcesScreen';
import { StreamScreen } from '../features/stream/StreamScreen';
import { SyncScreen } from '../features/sync/SyncScreen';
import { WebhooksScreen } from '../features/webhooks/WebhooksScreen';
import { WorkflowsScreen } from '../features/workflows/WorkflowsScreen';
import { focusCodeEditor, useEditorsShown } from '../ui/code-editor/CodeEditor';
import { segments, useRoute } from './router';
import { Sidebar } from './Sidebar';
import { useApp } from './store';
import { Toasts } from './Toasts';

/** The app shell: sidebar, the screen for the URL, notices. */
export function App() {
  const { path, navigate } = useRoute();
  const { loadSources, loadWebhooks, loadWorkflows, error } = useApp();
  const reachable = useConnection((c) => c.reachable);
  const editors = useEditorsShown((e) => e.count);
  const main = useRef<HTMLElement>(null);
  const section = segments(path)[0] ?? 'sources';

  useEffect(() => {
    if (window.location.pathname === '/') navigate(`/sources${window.location.search}`, { replace: true });
  }, [navigate]);

  useEffect(() => {
    void loadSources();
    // Sources deployed from the CLI or API appear without a reload; their last event and errors come with them.
    const timer = setInterval(() => void loadSources(), 4000);
    return () => clearInterval(timer);
  }, [loadSources]);

  // Back after being unreachable: reload what the screens list (they kept the old data meanwhile).
  const wasReachable = useRef(true);
  useEffect(() => {
    if (reachable && !wasReachable.current) {
      void loadSources();
      if (useApp.getState().webhooksLoaded) void loadWebhooks();
      if (useApp.getState().workflowsLoaded) void loadWorkflows();
    }
    wasReachable.current = reachable;
    if (reachable) return;
    // While unreachable, ask every 2 s (the regular refresh is slower).
    const timer = setInterval(() => void loadSources(), 2000);
    return () => clearInterval(timer);
  }, [reachable, loadSources, loadWebhooks, loadWorkflows]);

  // On navigation, move focus to the new screen's heading (screen readers announce it).
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (useRoute.getState().keepFocus) return;
    const heading = main.current?.querySelector<HTMLElement>('h1');
    heading?.focus({ preventScroll: true });
    document.title = `${heading?.textContent ?? 'Spout'} · Spout`;
  }, [path]);

  let screen: ReactNode;
  if (section === 'sources') screen = <SourcesScreen />;
  else if (section === 'actions') screen = <ActionsScreen />;
  else if (section === 'workflows') screen = <WorkflowsScreen />;
  else if (section === 'stream') screen = <StreamScreen />;
  else if (section === 'webhooks') screen = <WebhooksScreen />;
  else if (section === 'data-stores') screen = <DataStoresScreen />;
  else if (section === 'settings') screen = <SettingsScreen />;
  else if (section === 'sync') screen = <SyncScreen />;
  else
    screen = (
      <div className="welcome">
        <h1 tabIndex={-1}>Not found</h1>
        <p>There is no page at {path}.</p>
      </div>
    );

  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      {editors > 0 && (
        <a
          href="#main"
          className="skip-link"
          onClick={(e) => {
            e.preventDefault();
            focusCodeEditor();
          }}
        >
          Skip to the code editor
        </a>
      )}
      <Sidebar />
      <main id="main" ref={main} tabIndex={-1}>
        {!reachable && (
          <div role="alert" className="banner offline" data-testid="offline-banner">
            <strong>The Spout service is not answering.</strong> What you see was loaded before; it updates again as soon as the service is back (checking every 2 s).{' '}
            <button type="button" className="small" onClick={() => void loadSources()}>
              Retry now
            </button>
          </div>
        )}
        {error && (
          <p role="alert" className="error banner">
            {error}
          </p>
        )}
        {screen}
      </main>
      <Toasts />
      <Shortcuts />
    </div>
  );
}
