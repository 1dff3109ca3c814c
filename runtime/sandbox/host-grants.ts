// The command line a component host starts with: Node's permission model with only the grants a
// component needs, a heap limit, and (where a POSIX shell starts it) limits of open files and of
// file size set by the kernel. docs/security.md lists the rules.
import fs from 'node:fs';
import type { HostGrants } from '../contract/host-protocol';
import { MAX_HOST_FDS } from '../contract/limits';

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
  /** Arguments after the script: they mark the host and tell it what to do first (see host-main). */
  scriptArgs?: string[];
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
  // One thread of its own, the watchdog that ends the host when the service is gone (host-guards.ts); components may start none.
  if (permission && flags.has('--allow-worker')) args.push('--allow-worker');
  // A global WebSocket, as Node 22 has (Supabase's client needs one; on Node 20 it is behind this flag).
  if (flags.has('--experimental-websocket')) args.push('--experimental-websocket');
  // The model's "experimental" notice (and --allow-worker's caution) would land in every source's log.
  if (flags.has('--disable-warning')) args.push('--disable-warning=ExperimentalWarning', '--disable-warning=SecurityWarning');
  args.push(`--max-old-space-size=${command.heapMb}`, command.script, ...(command.scriptArgs ?? []));
  return args;
}

/**
 * The program and arguments that start a host running `node` with `args`. Where there is a POSIX
 * shell, it sets the kernel's limits first and then becomes the host (`exec`, same pid): at most
 * MAX_HOST_FDS open files and sockets, so no component can use up the service's, and no file
 * written larger than `maxFileBytes`. On Linux the host is also put in the `SCHED_BATCH` class
 * (docs/performance.md): a host woken by a run does not preempt the service's thread that woke it.
 */
export function hostLauncher(node: string, args: string[], maxFileBytes: number): { file: string; args: string[] } {
  if (process.platform === 'win32' || !fs.existsSync('/bin/sh')) return { file: node, args };
  // ulimit -f counts 512-byte blocks (POSIX); a limit the shell cannot set is left as it was.
  // The class is kept across exec and by every thread the host starts; without chrt (util-linux) it stays as it was.
  const batch = process.platform === 'linux' ? 'chrt -b -p 0 $$ >/dev/null 2>&1; ' : '';
  const limits = `ulimit -n ${MAX_HOST_FDS} 2>/dev/null; ulimit -f ${Math.ceil(maxFileBytes / 512)} 2>/dev/null; ${batch}exec "$0" "$@"`;
  return { file: '/bin/sh', args: ['-c', limits, node, ...args] };
}

/**
 * The environment of a host: none of the service's (its API key among them), as components see no
 * environment variables on Pipedream either; `tempDir`, when given, is its temp folder (`os.tmpdir()`).
 */
export function hostEnv(env: NodeJS.ProcessEnv = process.env, tempDir?: string): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const name of ['TZ', 'LANG', 'LC_ALL', 'SYSTEMROOT']) if (env[name] !== undefined) kept[name] = env[name];
  if (tempDir) for (const name of process.platform === 'win32' ? ['TMP', 'TEMP'] : ['TMPDIR']) kept[name] = tempDir;
  // Inside Electron, its binary runs the host as plain Node.
  if (process.versions.electron) kept.ELECTRON_RUN_AS_NODE = '1';
  return kept;
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
