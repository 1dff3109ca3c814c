import { useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { EventList } from './components/EventList';
import { SourceList } from './components/SourceList';
import { useApp } from './store';
import './styles.css';

function App() {
  const { loadSources, error } = useApp();
  useEffect(() => {
    void loadSources();
    // Sources deployed from the CLI or API appear without a reload.
    const timer = setInterval(() => void loadSources(), 3000);
    return () => clearInterval(timer);
  }, [loadSources]);
  return (
    <div className="app">
      <header className="top">
        <h1>Spout</h1>
        {error && <p role="alert" className="error">{error}</p>}
      </header>
      <main>
        <nav>
          <h2>Sources</h2>
          <SourceList />
        </nav>
        <EventList />
      </main>
    </div>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(<App />);
