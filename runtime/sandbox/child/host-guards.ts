// Limits Node's permission model leaves open, closed before component code loads. The model
// restricts files, child processes, threads, addons and the inspector, but not signals, process
// priorities or V8's flags: without these guards a component could kill the service
// (`process.kill(process.ppid)`, or its process group with pid 0), renice it (or, as root, raise
// itself above it), open the service's
// debugger with `process._debugProcess(pid)`, or turn on V8's internal functions. The service also
// ignores SIGUSR1 (service.ts) in case another way is found. fs-guards.ts and net-guards.ts close
// the rest; docs/security.md lists every wall.
import fs from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import v8 from 'node:v8';
import workerThreads from 'node:worker_threads';

/** The error every wall throws: what was called, what components may not do, and where the rules are. */
export function refused(what: string, rule: string, code = 'ERR_ACCESS_DENIED'): Error {
  return Object.assign(new Error(`${what}: components may not ${rule} (docs/security.md)`), { code });
}

/** Thrown when component code signals a process other than its own host. */
function signalRefused(what: string): Error {
  return Object.assign(new Error(`${what}: a component may signal only its own process`), { code: 'ERR_SIGNAL_DENIED' });
}

/** Replaces a property with one component code cannot change back. */
export function define(target: object, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, writable: false, configurable: false, enumerable: true });
}

/**
 * Starts the watchdog: a thread of the host's own that ends the host (SIGKILL, to itself) as soon
 * as the service's end of the pipe on fd 4 closes, which the kernel does however the service ends
 * (a crash or a `kill -9` included). It runs on its own thread, so it acts even while the
 * component's code keeps the main thread busy. Call before `guardProcess`, which walls threads off.
 */
export function startWatchdog(): void {
  const watchdog = new workerThreads.Worker(
    `const net = require('node:net');
     const pipe = new net.Socket({ fd: 4, readable: true, writable: false });
     const end = () => process.kill(process.pid, 'SIGKILL');
     pipe.on('end', end); pipe.on('error', end); pipe.resume();`,
    { eval: true, stdout: false, stderr: false },
  );
  watchdog.unref();
}

/** Closes descriptors the host inherited without meaning to (listed by the service as `--close-fds=5,9`). */
export function closeInheritedFds(argv = process.argv, close: (fd: number) => void = defaultClose): void {
  const listed = argv.find((a) => a.startsWith('--close-fds='))?.slice('--close-fds='.length) ?? '';
  for (const fd of listed.split(',').map(Number)) if (Number.isInteger(fd) && fd > 4) close(fd);
}

function defaultClose(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // already closed
  }
}

/** Replaces the functions that reach other processes, V8's flags and threads with ones that cannot. */
export function guardProcess(): void {
  const own = process.pid;
  const p = process as unknown as Record<string, unknown>;
  // `process.kill` converts the signal name, then calls `_kill`: guarding `_kill` guards both.
  const rawKill = p._kill as (pid: number, signal: number) => number;
  define(p, '_kill', (pid: number, signal: number) => {
    // 0 and negative pids address process groups, which include the service.
    if (pid !== own) throw signalRefused('process.kill');
    return rawKill.call(process, pid, signal);
  });
  for (const name of ['_debugProcess', '_debugEnd']) {
    define(p, name, () => {
      throw signalRefused(`process.${name}`);
    });
  }
  const setPriority = os.setPriority;
  // A host starts at the service's priority; run as root, it could otherwise raise itself above it (nice -20).
  const floor = os.getPriority();
  define(os, 'setPriority', (pid: number, priority?: number) => {
    // One argument is a priority for this process; pid 0 is this process too.
    if (priority !== undefined && pid !== 0 && pid !== own) throw refused('os.setPriority', 'change the priority of another process');
    const wanted = priority === undefined ? pid : priority;
    if (typeof wanted === 'number' && wanted < floor) throw refused('os.setPriority', `raise their priority above the service's (nice ${floor})`);
    return priority === undefined ? setPriority(pid) : setPriority(pid, priority);
  });
  define(v8, 'setFlagsFromString', () => {
    throw refused('v8.setFlagsFromString', "change V8's flags (they open its internal functions)");
  });
  // The host's watchdog is its only thread: others are refused as Node refuses them without --allow-worker.
  class NoThreads {
    constructor() {
      throw Object.assign(new Error('Access to this API has been restricted'), { code: 'ERR_ACCESS_DENIED', permission: 'WorkerThreads' });
    }
  }
  define(workerThreads, 'Worker', NoThreads);
  // `import('node:os')` and the like see the guarded functions too.
  module.syncBuiltinESMExports();
}
