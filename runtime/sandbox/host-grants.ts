// The command line a component host starts with: Node's permission model with only the grants a
// component needs, and a heap limit. DESIGN.md section 5 and docs/security.md list the rules.

import type { HostGrants } from '../contract/host-protocol';

/** No grant beyond the defaults every host has. */
export const NO_GRANTS: HostGrants = { read: [], write: [] };

/** The flag that turns the permission model on in this Node (`--permission` from Node 22.13/23.5), or null where it has none. */
export function permissionFlag(flags: ReadonlySet<string> = process.allowedNodeEnvironmentFlags): string | null {
  if (flags.has('--permission')) return '--permission';
  if (flags.has('--experimental-permission')) return '--experimental-permission';
  return null;
}

export interface HostCommand {
  /** The host's entry script. */
  script: string;
  /** Read-only grants every host has (the package cache, Spout's own code). */
  baseRead: string[];
  grants: HostGrants;
  /** V8 heap limit, MB. */
  heapMb: number;
}

/** Node arguments of a host: permission flags and grants, the heap limit, then the script. */
export function hostArgs(command: HostCommand, flags: ReadonlySet<string> = process.allowedNodeEnvironmentFlags): string[] {
  const permission = permissionFlag(flags);
  const args: string[] = [];
  if (permission) {
    args.push(permission);
    // Each path its own flag: Node 20 reads a comma in one value as part of the path.
    for (const p of unique([command.script, ...command.baseRead, ...command.grants.read, ...command.grants.write])) args.push(`--allow-fs-read=${p}`);
    for (const p of unique(command.grants.write)) args.push(`--allow-fs-write=${p}`);
  }
  // The model's "experimental" notice would land in every source's log.
  if (flags.has('--disable-warning')) args.push('--disable-warning=ExperimentalWarning');
  args.push(`--max-old-space-size=${command.heapMb}`, command.script);
  return args;
}

/** The environment of a host: none of the service's (its API key among them), as components see no environment variables on Pipedream either. */
export function hostEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const name of ['TZ', 'LANG', 'LC_ALL', 'SYSTEMROOT']) if (env[name] !== undefined) kept[name] = env[name];
  // Inside Electron, its binary runs the host as plain Node.
  if (process.versions.electron) kept.ELECTRON_RUN_AS_NODE = '1';
  return kept;
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
