// The folders a dev session may read and write (`spout mcp --dev --root DIR`, `/mcp?toolset=dev&root=DIR`):
// every path is resolved through its symlinks first, so a link inside a root cannot lead out of it,
// and the data dir is refused even inside a root (it holds the key, secrets and every record).
import fs from 'node:fs';
import path from 'node:path';

/** A file the session may not touch or read, named with the folders it may. */
export class FileRefused extends Error {}

/** True when `inner` is `outer` or inside it. */
function within(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The nearest existing ancestor resolved through its links, and the rest appended (a file to be written may not exist yet). */
function realPath(target: string): string {
  const rest: string[] = [];
  let at = target;
  for (;;) {
    try {
      return path.join(fs.realpathSync(at), ...rest.reverse());
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return target;
      rest.push(path.basename(at));
      at = parent;
    }
  }
}

/** The allowed folders of one session, and the check every file path goes through. */
export class RootGuard {
  private readonly roots: string[];
  private readonly dataDir: string;

  constructor(roots: string[], dataDir: string) {
    this.roots = roots.map((r) => realPath(path.resolve(r)));
    this.dataDir = realPath(path.resolve(dataDir));
  }

  /** The folders, as given to the agent in messages. */
  list(): string[] {
    return [...this.roots];
  }

  /** The real path of `given` (relative to the first root), or an FileRefused naming it and the roots. */
  check(given: string): string {
    if (this.roots.length === 0) throw new FileRefused(`${given}: this session may touch no files; start it with --root DIR (spout mcp --dev) or ?root=DIR (/mcp?toolset=dev)`);
    const resolved = realPath(path.resolve(this.roots[0] as string, given));
    const allowed = `the allowed folders are ${this.roots.join(', ')}`;
    if (within(resolved, this.dataDir)) throw new FileRefused(`${given}: ${resolved} is in Spout's data dir, which agents may never read or write; keep components in ${this.roots.join(' or ')}`);
    if (!this.roots.some((r) => within(resolved, r))) {
      const link = resolved !== path.resolve(this.roots[0] as string, given) ? ` (it resolves to ${resolved} through a symbolic link)` : '';
      throw new FileRefused(`${given}: outside the folders this session may touch${link}; ${allowed}. Write the file under one of them, or restart the session with --root for its folder`);
    }
    return resolved;
  }

  /** The text of a file under the roots. */
  read(given: string): string {
    const file = this.check(given);
    try {
      return fs.readFileSync(file, 'utf8');
    } catch (err) {
      throw new FileRefused(`${given}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); give a file that exists under ${this.roots.join(', ')}`);
    }
  }
}
