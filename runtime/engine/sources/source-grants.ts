// Folders a user grants one source beyond what every component host may touch (docs/security.md).
import fs from 'node:fs';
import path from 'node:path';
import type { ComponentProblem } from '../../contract/component-shape';
import type { HostGrants } from '../../contract/host-protocol';

/** A source's grants as stored and shown: absolute paths it may read, and may write (and read). */
export interface SourcePermissions {
  read: string[];
  write: string[];
}

/** Most paths one source may be granted. */
const MAX_GRANTS = 20;

/**
 * Checks grants given for a source: absolute paths that exist, none of them the data dir, inside
 * it, or above it (the data dir holds the keys that open every stored secret).
 */
export function checkPermissions(given: SourcePermissions, dataDir: string): { permissions: SourcePermissions; problems: ComponentProblem[] } {
  const problems: ComponentProblem[] = [];
  const data = path.resolve(dataDir);
  const refuse = (where: string, message: string): string[] => {
    problems.push({ path: where, message });
    return [];
  };
  const clean = (kind: 'read' | 'write') =>
    given[kind].flatMap((raw, i) => {
      const where = `permissions.${kind}[${i}]`;
      if (!path.isAbsolute(raw)) return refuse(where, `"${raw}" is not an absolute path; give the full path of a folder or file`);
      const p = path.resolve(raw);
      if (!fs.existsSync(p)) return refuse(where, `"${p}" does not exist; create it first`);
      if (within(p, data)) return refuse(where, `"${p}" is inside Spout's data dir (${data}), which holds the keys to every stored secret; grant another folder`);
      if (within(data, p)) return refuse(where, `"${p}" contains Spout's data dir (${data}), which holds the keys to every stored secret; grant a folder beside it`);
      return [p];
    });
  const permissions = { read: [...new Set(clean('read'))], write: [...new Set(clean('write'))] };
  if (given.read.length + given.write.length > MAX_GRANTS) problems.push({ path: 'permissions', message: `at most ${MAX_GRANTS} paths can be granted to one source` });
  return { permissions, problems };
}

/** The host grants of a source's permissions. */
export function hostGrants(permissions: SourcePermissions | undefined): HostGrants {
  return permissions ? { read: permissions.read, write: permissions.write } : { read: [], write: [] };
}

/** True when `inner` is `outer` or below it. */
function within(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
