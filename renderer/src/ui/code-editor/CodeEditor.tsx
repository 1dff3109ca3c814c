import { useEffect, useRef, useState } from 'react';
import { create } from 'zustand';
import { editorAssets } from './asset-urls';
import type { CodeEditorHandle, EditorLanguage, EditorMarker } from './monaco-editor';

type EditorModule = typeof import('./monaco-editor');

let loading: Promise<EditorModule> | null = null;

/** Loads the monaco bundle (the editor script and its stylesheet) once; a screen about to show an editor may start it early. */
export function loadEditor(): Promise<EditorModule> {
  if (!loading) {
    const assets = editorAssets();
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = assets.editorCss;
    document.head.appendChild(link);
    loading = import(/* a separate bundle, see scripts/build.js */ assets.editor) as Promise<EditorModule>;
  }
  return loading;
}

/** Text the app puts in the editor (the service's code, an opened file); a new `rev` replaces the editor's text. */
export interface EditorDocument {
  text: string;
  rev: number;
}

/** How many editable code editors are on the page: the app offers a skip link to the first one. */
export const useEditorsShown = create<{ count: number }>(() => ({ count: 0 }));

/** Moves focus into the first editable code editor on the page. */
export function focusCodeEditor(): void {
  document.querySelector<HTMLElement>('.code-editor[data-editable="true"] textarea')?.focus();
}

const dark = () => window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;

/**
 * The component code editor: monaco (JS/TS highlighting, completion for `this.$emit`, `this.db`
 * and the props), the service's validation problems as markers, Ctrl/Cmd+S to save. Falls back to
 * a plain text area if the editor bundle cannot load. The editor owns the text while the user types:
 * `onChange` reports it, and only a new `document` (by `rev`) replaces it, so a render lagging behind
 * fast typing never writes stale text back (which moved the cursor to line 1).
 */
export function CodeEditor({
  document: doc,
  language,
  markers,
  props,
  onChange,
  onSave,
  revealLine,
  readOnly = false,
}: {
  document: EditorDocument;
  language: EditorLanguage;
  markers: EditorMarker[];
  props: Array<{ name: string; type: string; description?: string }>;
  onChange(value: string): void;
  onSave(): void;
  revealLine?: { line: number; at: number } | null;
  /** Shown, not edited (a chosen component's code). */
  readOnly?: boolean;
}) {
  const host = useRef<HTMLDivElement>(null);
  const handle = useRef<CodeEditorHandle | null>(null);
  const callbacks = useRef({ onChange, onSave });
  callbacks.current = { onChange, onSave };
  const [state, setState] = useState<'loading' | 'ready' | 'fallback'>('loading');
  useEffect(() => {
    if (readOnly) return;
    useEditorsShown.setState((s) => ({ count: s.count + 1 }));
    return () => useEditorsShown.setState((s) => ({ count: s.count - 1 }));
  }, [readOnly]);

  useEffect(() => {
    let disposed = false;
    loadEditor()
      .then((mod) => {
        if (disposed || !host.current) return;
        handle.current = mod.createCodeEditor(host.current, {
          value: doc.text,
          language,
          ariaLabel: readOnly ? 'Component code (read-only)' : 'Component code',
          readOnly,
          dark: dark(),
          onChange: (v) => callbacks.current.onChange(v),
          onSave: () => callbacks.current.onSave(),
        });
        setState('ready');
      })
      .catch((err: unknown) => {
        console.warn('code editor unavailable, using a text area:', err);
        if (!disposed) setState('fallback');
      });
    return () => {
      disposed = true;
      handle.current?.dispose();
      handle.current = null;
    };
    // The editor is created once; later values flow in through the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Only a new document replaces the text; `doc.text` of the same rev is what the editor already has.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => handle.current?.setValue(doc.text), [doc.rev, state]);
  useEffect(() => handle.current?.setLanguage(language), [language, state]);
  useEffect(() => handle.current?.setMarkers(markers), [markers, state]);
  useEffect(() => handle.current?.setComponentProps(props), [props, state]);
  useEffect(() => {
    if (revealLine) handle.current?.revealLine(revealLine.line);
  }, [revealLine, state]);

  return (
    <div className="code-editor" data-state={state} data-editable={!readOnly} data-testid="code-editor">
      {state === 'fallback' ? (
        <textarea
          key={doc.rev}
          aria-label={readOnly ? 'Component code (read-only)' : 'Component code'}
          readOnly={readOnly}
          className="code-fallback"
          defaultValue={doc.text}
          spellCheck={false}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => {
            if ((e.ctrlKey || e.metaKey) && e.key === 's') {
              e.preventDefault();
              onSave();
            }
          }}
        />
      ) : (
        <div ref={host} className="monaco-host">
          {state === 'loading' && <p className="empty">Loading editor…</p>}
        </div>
      )}
      {!readOnly && state === 'ready' && (
        <p className="muted small-note editor-hint">
          Tab indents here; <kbd>Ctrl</kbd>+<kbd>M</kbd> makes Tab move focus instead (and back). <kbd>Ctrl</kbd>+<kbd>S</kbd> saves.
        </p>
      )}
    </div>
  );
}
