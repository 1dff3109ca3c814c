// `dir` props (Pipedream's File Stash directories). Offline each gets a folder of its own under
// `DATA_DIR/dirs/<source or component id>/`, which that component's host may read and write, or
// an absolute folder the user configures (and grants the source, as any other folder).
import path from 'node:path';
import type { ConfigurableProp } from '../../contract/component-shape';
import type { HostGrants } from '../../contract/host-protocol';
import { makePrivateDir } from '../../lib/private-files';

/** The folder behind one `dir` prop, and whether the component may write to it. */
export interface DirFolder {
  path: string;
  write: boolean;
}

/** The configured value of a `dir` prop: a folder of the user's own (absolute), instead of the source's. */
export function configuredDir(value: unknown): string | null {
  const folder = typeof value === 'string' ? value : typeof value === 'object' && value !== null ? (value as { path?: unknown }).path : undefined;
  return typeof folder === 'string' && path.isAbsolute(folder) ? path.normalize(folder) : null;
}

/** The folder holding the `dir` props' folders of one source or action. */
export function dirsRoot(dataDir: string, id: string): string {
  return path.join(dataDir, 'dirs', id);
}

/** The folder of each `dir` prop, by prop name: `DATA_DIR/dirs/<id>/<prop>` unless configured. `accessMode: "read"` is read-only. */
export function dirFolders(props: readonly ConfigurableProp[], values: Record<string, unknown>, id: string, dataDir: string): Record<string, DirFolder> {
  const out: Record<string, DirFolder> = {};
  for (const prop of props) {
    if (prop.type !== 'dir') continue;
    const folder = configuredDir(values[prop.name]) ?? path.join(dirsRoot(dataDir, id), prop.name);
    out[prop.name] = { path: folder, write: prop.accessMode !== 'read' };
  }
  return out;
}

/**
 * A host's grants with its own `dir` props' folder added (read and write): the only place under
 * the data dir a component may touch. The folder is created now, as Node's permission model
 * covers what is inside a granted folder only when the folder exists. `/tmp` (where registry code
 * with `sync: true` dirs writes) and configured folders are the user's to grant.
 */
export function dirGrants(grants: HostGrants, dataDir: string, id: string): HostGrants {
  const root = dirsRoot(dataDir, id);
  // 0700 (DATA_DIR/dirs too): what components keep here is as private as the rest of the data dir.
  makePrivateDir(root);
  return { read: [...grants.read, root], write: [...grants.write, root] };
}
