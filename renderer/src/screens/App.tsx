import { useEffect, useRef } from 'react';
import { Sidebar } from '../components/Sidebar';
import { Toasts } from '../components/Toasts';
import { segments, useRoute } from '../router';
import { useApp } from '../store';
import { DataStoresScreen } from './DataStoresScreen';
import { SettingsScreen } from './SettingsScreen';
import { SourcesScreen } from './SourcesScreen';
import { WebhooksScreen } from './WebhooksScreen';
import { WorkflowsScreen } from './WorkflowsScreen';

/** The app shell: sidebar, the screen for the URL, notices. */
export function App() {
  const { path, navigate } = useRoute();
  const { loadSources, loadStatus, error } = useApp();
  const main = useRef<HTMLElement>(null);
  const section = segments(path)[0] ?? 'sources';

  useEffect(() => {
    if (window.location.pathname === '/') navigate('/sources' + window.location.search, { replace: true });
  }, [navigate]);

  useEffect(() => {
    let stopped = false;
    const refresh = async () => {
      await loadSources();
      if (!stopped) await loadStatus();
    };
    void refresh();
    // Sources deployed from the CLI or API appear without a reload.
    const timer = setInterval(() => void refresh(), 4000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [loadSources, loadStatus]);

  // On navigation, move focus to the new screen's heading (screen readers announce it).
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const heading = main.current?.querySelector<HTMLElement>('h1');
    heading?.focus({ preventScroll: true });
    document.title = `${heading?.textContent ?? 'Spout'} · Spout`;
  }, [path]);

  let screen;
  if (section === 'sources') screen = <SourcesScreen />;
  else if (section === 'workflows') screen = <WorkflowsScreen />;
  else if (section === 'webhooks') screen = <WebhooksScreen />;
  else if (section === 'data-stores') screen = <DataStoresScreen />;
  else if (section === 'settings') screen = <SettingsScreen />;
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
      <Sidebar />
      <main id="main" ref={main} tabIndex={-1}>
        {error && (
          <p role="alert" className="error banner">
            {error}
          </p>
        )}
        {screen}
      </main>
      <Toasts />
    </div>
  );
}
