import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { loadEditor } from './ui/code-editor/CodeEditor';
import './app/styles.css';

// A screen that opens with the code editor (New source, a source's Configure tab) starts loading
// the editor's bundle now, beside the first render, instead of after it.
if (/^\/sources\/[^/]+\/?$/.test(window.location.pathname)) void loadEditor().catch(() => undefined);

createRoot(document.getElementById('root') as HTMLElement).render(<App />);
