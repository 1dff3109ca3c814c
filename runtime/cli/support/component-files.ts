// A source's original files on disk (`spout describe SRC --files DIR`, `spout update SRC --files DIR`):
// written as the service gives them, read back to be bundled by the service.
import fs from 'node:fs';
import path from 'node:path';
import { isFileSetPath, MAX_COMPONENT_FILES } from '../../components/file-set';
import type { ComponentFile } from '../../contract/component-api';
import { UsageError } from './usage';

/** Writes `files` under `dir` (made if missing) at their paths; a path that is not a safe relative one is refused, never written. */
export function writeComponentFiles(dir: string, files: readonly ComponentFile[]): void {
  for (const f of files) {
    if (!isFileSetPath(f.path)) throw new Error(`the service gave a file at "${f.path}", which is not a relative path inside ${dir}; nothing of it was written`);
  }
  for (const f of files) {
    const target = path.join(dir, ...f.path.split('/'));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, f.code);
  }
}

/** Every file under `dir` (hidden ones and node_modules left out), with `/`-separated paths relative to it. */
export function readComponentFiles(dir: string): ComponentFile[] {
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--files ${dir}: no such folder; give the folder "spout describe SRC --files DIR" wrote`);
  const files: ComponentFile[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const sub = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(sub);
      else if (entry.isFile()) files.push({ path: sub, code: fs.readFileSync(path.join(dir, sub), 'utf8') });
      if (files.length > MAX_COMPONENT_FILES) throw new UsageError(`--files ${dir} holds more than ${MAX_COMPONENT_FILES} files; give the folder of the component's files only`);
    }
  };
  walk('');
  return files.sort((a, b) => a.path.localeCompare(b.path));
}
