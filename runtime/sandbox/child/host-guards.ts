// Limits Node's permission model leaves open, closed before component code loads. The model
// restricts files, child processes, threads, addons and the inspector, but not signals: without
// these guards a component could kill the service (`process.kill(process.ppid)`, or its process
// group with pid 0) or open the service's debugger with `process._debugProcess(pid)` and run code
// there. The service also ignores SIGUSR1 (service.ts) in case another way is found.

/** Thrown when component code signals a process other than its own host. */
function refused(what: string): Error {
  return Object.assign(new Error(`${what}: a component may signal only its own process`), { code: 'ERR_SIGNAL_DENIED' });
}

/** Replaces the process functions that reach other processes with ones that cannot. */
export function guardProcess(): void {
  const own = process.pid;
  const p = process as unknown as Record<string, unknown>;
  // `process.kill` converts the signal name, then calls `_kill`: guarding `_kill` guards both.
  const rawKill = p._kill as (pid: number, signal: number) => number;
  define(p, '_kill', (pid: number, signal: number) => {
    // 0 and negative pids address process groups, which include the service.
    if (pid !== own) throw refused('process.kill');
    return rawKill.call(process, pid, signal);
  });
  define(p, '_debugProcess', () => {
    throw refused('process._debugProcess');
  });
  define(p, '_debugEnd', () => {
    throw refused('process._debugEnd');
  });
}

function define(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, writable: false, configurable: false, enumerable: false });
}
