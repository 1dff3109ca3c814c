import { useState } from 'react';
import type { ComponentFile } from '../../../../runtime/contract/component-api';
import { CodeEditor } from '../../ui/code-editor/CodeEditor';
import type { EditorLanguage } from '../../ui/code-editor/monaco-editor';

/** How the editor shows a file: by its name (a package.json is plain text). */
export const languageOf = (filename: string): EditorLanguage => (/\.(ts|mts|cts)$/.test(filename) ? 'typescript' : /\.(mjs|cjs|js|jsx)$/.test(filename) ? 'javascript' : 'plaintext');

/**
 * The files of a component made of several (a registry component's and what it imports), as an
 * editor lists a project's: one tab per file by its path in the registry, the component's own
 * first and marked; `edited` marks the files changed since they were loaded.
 */
export function FileTabs({ files, entry, open, edited, onOpen }: { files: ComponentFile[]; entry: string; open: string; edited?: ReadonlySet<string>; onOpen(path: string): void }) {
  return (
    <div className="tabs file-tabs" role="tablist" aria-label="Component files">
      {files.map((f) => (
        <button key={f.path} type="button" role="tab" aria-selected={f.path === open} title={f.path === entry ? `${f.path} (the component)` : f.path} onClick={() => onOpen(f.path)}>
          {f.path}
          {edited?.has(f.path) && <span aria-label=" (edited)"> ●</span>}
        </button>
      ))}
    </div>
  );
}

/** A component's files read-only (a registry component before it is deployed): its own file open, the others a tab away. */
export function FileSetViewer({ files, entry, props, onSave }: { files: ComponentFile[]; entry: string; props: Array<{ name: string; type: string }>; onSave(): void }) {
  const [open, setOpen] = useState(entry);
  const file = files.find((f) => f.path === open) ?? files[0];
  if (!file) return null;
  return (
    <>
      <FileTabs files={files} entry={entry} open={file.path} onOpen={setOpen} />
      {/* A file's index as the document's revision: opening another file replaces the text. */}
      <CodeEditor document={{ text: file.code, rev: files.indexOf(file) }} language={languageOf(file.path)} markers={[]} props={props} readOnly onChange={() => undefined} onSave={onSave} />
    </>
  );
}
