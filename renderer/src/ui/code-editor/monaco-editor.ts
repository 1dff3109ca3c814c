// The code editor bundle (assets/editor.js + editor.css), loaded by the app the first time an editor
// is shown: monaco with JavaScript/TypeScript, its workers served from /assets, and completions for
// the component API. It exports plain DOM functions so it carries no React of its own.
import * as monaco from 'monaco-editor/editor/editor.api.js';
import './monaco-contribs';
import 'monaco-editor/languages/definitions/javascript/register.js';
import 'monaco-editor/languages/definitions/typescript/register.js';
import * as ts from 'monaco-editor/languages/features/typescript/register.js';
import { editorAssets } from './asset-urls';

// Workers are separate bundles beside this one (scripts/build.js); the CSP allows them ('self').
const assets = editorAssets();
self.MonacoEnvironment = {
  getWorkerUrl(_moduleId, label) {
    return label === 'typescript' || label === 'javascript' ? assets.tsWorker : assets.editorWorker;
  },
};

/** The `this` of a component, so `this.` completes in .ts and JSDoc-typed code too. */
const COMPONENT_API = `
interface SpoutEmitMeta { id?: string | number; name?: string; summary?: string; ts?: number }
interface SpoutDb { get(key: string): any; set(key: string, value: any): void }
interface SpoutHttp { endpoint: string; respond(response: { status: number | string; headers?: Record<string, string>; body?: any }): void }
`;

interface Completion {
  label: string;
  insert: string;
  detail: string;
  doc: string;
  snippet?: boolean;
}

const THIS_MEMBERS: Completion[] = [
  { label: '$emit', insert: '\\$emit(${1:event}, { summary: ${2:"summary"} })', detail: '$emit(event, { id, name, summary, ts })', doc: 'Emits an event. `id` dedupes (per the dedupe strategy), `name` picks the channel, `ts` orders events of one run.', snippet: true },
  { label: 'db', insert: 'db', detail: '$.service.db', doc: 'Synchronous key-value store of this source: `this.db.get(key)`, `this.db.set(key, value)`.' },
  { label: '$auth', insert: '$auth', detail: 'app credentials', doc: "Inside an app: the connected account's credentials." },
];

let componentProps: Array<{ name: string; type: string; description?: string }> = [];
let registered = false;

function registerCompletions(): void {
  if (registered) return;
  registered = true;
  for (const lang of ['javascript', 'typescript']) {
    monaco.languages.registerCompletionItemProvider(lang, {
      triggerCharacters: ['.'],
      provideCompletionItems(model, position) {
        const line = model.getValueInRange({ startLineNumber: position.lineNumber, startColumn: 1, endLineNumber: position.lineNumber, endColumn: position.column });
        const word = model.getWordUntilPosition(position);
        const range = { startLineNumber: position.lineNumber, endLineNumber: position.lineNumber, startColumn: word.startColumn, endColumn: word.endColumn };
        if (/this\.db\.\w*$/.test(line)) {
          return {
            suggestions: [
              { label: 'get', kind: monaco.languages.CompletionItemKind.Method, insertText: 'get(${1:"key"})', insertTextRules: monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet, detail: 'db.get(key): any', range },
              { label: 'set', kind: monaco.languages.CompletionItemKind.Method, insertText: 'set(${1:"key"}, ${2:value})', insertTextRules: monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet, detail: 'db.set(key, value): void', range },
            ],
          };
        }
        if (!/this\.\$?\w*$/.test(line)) return { suggestions: [] };
        const members: Completion[] = [...THIS_MEMBERS, ...componentProps.map((p) => ({ label: p.name, insert: p.name, detail: `prop: ${p.type}`, doc: p.description ?? '' }))];
        return {
          suggestions: members.map((m) => ({
            label: m.label,
            kind: m.snippet ? monaco.languages.CompletionItemKind.Method : monaco.languages.CompletionItemKind.Property,
            insertText: m.insert,
            insertTextRules: m.snippet ? monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet : undefined,
            detail: m.detail,
            documentation: { value: m.doc },
            range: m.label.startsWith('$') && line.endsWith('$') ? { ...range, startColumn: range.startColumn - 1 } : range,
            sortText: `0${m.label}`,
          })),
        };
      },
    });
  }
  for (const defaults of [ts.javascriptDefaults, ts.typescriptDefaults]) {
    defaults.addExtraLib(COMPONENT_API, 'file:///spout-component-api.d.ts');
    // Component files import packages the editor cannot see; don't flag those as errors.
    defaults.setDiagnosticsOptions({ noSemanticValidation: true, noSyntaxValidation: false });
    defaults.setCompilerOptions({ target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext, allowJs: true, allowNonTsExtensions: true });
  }
}

/** A problem reported by the service, placed in the editor. */
export interface EditorMarker {
  line: number;
  column: number;
  message: string;
  severity: 'error' | 'warning';
}

/** What the app gets back: the editor's handle. */
export interface CodeEditorHandle {
  getValue(): string;
  setValue(value: string): void;
  setLanguage(language: EditorLanguage): void;
  setMarkers(markers: EditorMarker[]): void;
  setComponentProps(props: Array<{ name: string; type: string; description?: string }>): void;
  revealLine(line: number): void;
  focus(): void;
  dispose(): void;
}

/** What the editor highlights and checks: component code, or other text (a package.json among a component's files). */
export type EditorLanguage = 'javascript' | 'typescript' | 'plaintext';

export interface CodeEditorOptions {
  value: string;
  language: EditorLanguage;
  ariaLabel: string;
  readOnly?: boolean;
  dark: boolean;
  onChange(value: string): void;
  /** Ctrl/Cmd+S. */
  onSave(): void;
}

let modelCount = 0;

export function createCodeEditor(element: HTMLElement, options: CodeEditorOptions): CodeEditorHandle {
  registerCompletions();
  const uri = monaco.Uri.parse(`file:///component-${++modelCount}.${options.language === 'typescript' ? 'ts' : 'js'}`);
  const model = monaco.editor.createModel(options.value, options.language, uri);
  // vs-dark's comments (#6A9955 on #1E1E1E) fall short of 4.5:1 contrast (axe: color-contrast).
  if (options.dark) monaco.editor.defineTheme('spout-dark', { base: 'vs-dark', inherit: true, rules: [{ token: 'comment', foreground: '7CB06A' }], colors: {} });
  const editor = monaco.editor.create(element, {
    model,
    automaticLayout: true,
    minimap: { enabled: false },
    fontSize: 13,
    tabSize: 2,
    scrollBeyondLastLine: false,
    ariaLabel: options.ariaLabel,
    readOnly: options.readOnly ?? false,
    theme: options.dark ? 'spout-dark' : 'vs',
    // Tab moves focus out of the editor after Ctrl+M, as in VS Code; Escape leaves widgets.
    tabFocusMode: false,
  });
  // Text set by the app (a loaded file, a source's code) is not a user edit.
  let applying = false;
  const sub = model.onDidChangeContent(() => {
    if (!applying) options.onChange(model.getValue());
  });
  editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => options.onSave());
  return {
    getValue: () => model.getValue(),
    setValue: (value) => {
      if (value === model.getValue()) return;
      applying = true;
      try {
        model.setValue(value);
      } finally {
        applying = false;
      }
    },
    setLanguage: (language) => monaco.editor.setModelLanguage(model, language),
    setMarkers: (markers) =>
      monaco.editor.setModelMarkers(
        model,
        'spout',
        markers.map((m) => {
          const line = Math.min(Math.max(1, m.line), model.getLineCount());
          return {
            severity: m.severity === 'warning' ? monaco.MarkerSeverity.Warning : monaco.MarkerSeverity.Error,
            message: m.message,
            startLineNumber: line,
            startColumn: Math.max(1, m.column),
            endLineNumber: line,
            endColumn: Math.max(m.column + 1, model.getLineMaxColumn(line)),
          };
        }),
      ),
    setComponentProps: (props) => {
      componentProps = props;
    },
    revealLine: (line) => {
      editor.revealLineInCenter(line);
      editor.setPosition({ lineNumber: line, column: 1 });
      editor.focus();
    },
    focus: () => editor.focus(),
    dispose: () => {
      sub.dispose();
      editor.dispose();
      model.dispose();
    },
  };
}
