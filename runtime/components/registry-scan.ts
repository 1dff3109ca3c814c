// Finding the component files of a registry folder laid out like Pipedream's `components/` tree,
// and telling when a file changed.
import fs from 'node:fs';
import path from 'node:path';

/** Files that may hold a component. */
const CODE_FILE = /\.(mjs|cjs|js|ts|mts|cts)$/;

/** Modification stamp of files (mtime and size); '' when one is missing. */
export function stampOf(files: string[]): string {
  const parts: string[] = [];
  for (const f of files) {
    try {
      const st = fs.statSync(f);
      parts.push(`${st.mtimeMs}:${st.size}`);
    } catch {
      return '';
    }
  }
  return parts.join('|');
}

/** The key a file's text seems to declare (`key: "…"`), to find it before it is described. */
export function guessKey(file: string): string | null {
  try {
    const m = /\bkey\s*:\s*(['"`])([\w.-]+)\1/.exec(fs.readFileSync(file, 'utf8'));
    return m?.[2] ?? null;
  } catch {
    return null;
  }
}

function subdirs(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && !e.name.startsWith('.') && e.name !== 'node_modules')
      .map((e) => e.name)
      .filter((name) => {
        try {
          return fs.statSync(path.join(dir, name)).isDirectory();
        } catch {
          return false;
        }
      })
      .sort();
  } catch {
    return [];
  }
}

/**
 * The component files of a registry folder: `<app>/{sources,actions}/<name>/<name>.(mjs|js|ts)`;
 * where no file is named like its folder, every module file there. `common/` folders hold shared
 * code, not components. A folder that itself has `sources/` or `actions/` is one app.
 */
export function findComponentFiles(root: string): Array<{ file: string; rel: string; app: string }> {
  const out: Array<{ file: string; rel: string; app: string }> = [];
  const isApp = (dir: string) => subdirs(dir).some((d) => d === 'sources' || d === 'actions');
  const apps = isApp(root) ? [{ dir: root, name: path.basename(root), rel: '' }] : subdirs(root).map((name) => ({ dir: path.join(root, name), name, rel: name }));
  for (const app of apps) {
    for (const kind of ['sources', 'actions']) {
      for (const name of subdirs(path.join(app.dir, kind))) {
        if (name === 'common') continue;
        const dir = path.join(app.dir, kind, name);
        let files: string[];
        try {
          files = fs.readdirSync(dir).filter((f) => CODE_FILE.test(f) && !f.endsWith('.d.ts') && !/\.(test|spec)\./.test(f));
        } catch {
          continue;
        }
        const own = files.filter((f) => f.replace(CODE_FILE, '') === name);
        for (const f of (own.length ? own : files).sort()) {
          out.push({ file: path.join(dir, f), rel: path.posix.join(...[app.rel, kind, name, f].filter(Boolean)), app: app.name });
        }
      }
    }
  }
  return out;
}
