// Starting a program, which no host may do (docs/security.md). Node's permission model refuses it
// by throwing at once, where a program that cannot start fails later: its `error` event, or the
// callback of `exec`/`execFile` (or the rejection of their promisified forms). Packages count on
// the second (google-auth-library asks the `gcloud` CLI for a project id, and goes on without one
// when the callback says it failed), so the asynchronous starts fail that way here too; the
// synchronous ones still throw, as a failed synchronous start does. Either way the error names the
// program and the rule, where Node's says only "Access to this API has been restricted".
import childProcess, { ChildProcess } from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { promisify } from 'node:util';
import { refused } from './host-guards';
import { withPropertiesOf } from './same-properties';

type AnyFn = (...args: unknown[]) => unknown;

/** True while a wrapped start runs: the starts it makes in turn (`exec` calls `execFile`) leave the refusal to it, which names what the component called. */
let starting = false;

/** Runs a start, the starts it makes in turn passing their refusal up to it. */
function outermost(start: AnyFn, self: unknown, args: unknown[]): unknown {
  starting = true;
  try {
    return start.apply(self, args);
  } finally {
    starting = false;
  }
}

/** The refusal of a start, naming the call and the program (`exec("mkdir -p /tmp/chunks")`). */
function startRefused(name: string, program: unknown, err: Error): Error {
  const what = typeof program === 'string' ? `${name}(${JSON.stringify(program.length > 200 ? `${program.slice(0, 200)}…` : program)})` : `${name}()`;
  return Object.assign(refused(what, 'start processes or run programs'), { permission: (err as { permission?: unknown }).permission ?? 'ChildProcess' });
}

/** Wraps a start so that its refusal arrives as a failed start: on the returned child's `error` event, and to a trailing callback. */
function failLater(name: string, start: AnyFn, takesCallback: boolean): AnyFn {
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    if (starting) return start.apply(this, args);
    try {
      return outermost(start, this, args);
    } catch (caught) {
      if ((caught as NodeJS.ErrnoException).code !== 'ERR_ACCESS_DENIED') throw caught;
      const err = startRefused(name, args[0], caught as Error);
      const callback = takesCallback && typeof args.at(-1) === 'function' ? (args.at(-1) as AnyFn) : null;
      const child = new ChildProcess();
      process.nextTick(() => {
        // As Node's own: with a callback, the error goes there; without one, an unheard `error` event throws.
        if (callback) callback(err, '', '');
        if (!callback || child.listenerCount('error') > 0) child.emit('error', err);
      });
      return child;
    }
  };
  // `promisify(exec)` uses Node's own promisified form, which calls the unwrapped start: it would
  // throw at once instead of rejecting. This one goes through the wrapper, resolving `{stdout,
  // stderr}` and rejecting with them on the error, as Node's does.
  if (takesCallback) {
    const promised = (...args: unknown[]) => {
      let child: unknown;
      const promise = new Promise((resolve, reject) => {
        child = wrapped(...args, (err: Error | null, stdout: unknown, stderr: unknown) => (err ? reject(Object.assign(err, { stdout, stderr })) : resolve({ stdout, stderr })));
      });
      return Object.assign(promise, { child });
    };
    Object.defineProperty(wrapped, promisify.custom, { value: promised, enumerable: false, writable: false, configurable: true });
  }
  return withPropertiesOf(wrapped, start);
}

/** Throws a synchronous start's refusal naming the program, as the asynchronous ones do. */
function refuseNow(name: string, start: AnyFn): AnyFn {
  return withPropertiesOf(function (this: unknown, ...args: unknown[]): unknown {
    if (starting) return start.apply(this, args);
    try {
      return outermost(start, this, args);
    } catch (caught) {
      if ((caught as NodeJS.ErrnoException).code !== 'ERR_ACCESS_DENIED') throw caught;
      throw startRefused(name, args[0], caught as Error);
    }
  }, start);
}

/** Makes `spawn`, `fork`, `exec` and `execFile` fail as a program that could not start, and the `…Sync` ones throw naming it (imports of them included). */
export function installProcessStarts(): void {
  const cp = childProcess as unknown as Record<string, AnyFn>;
  for (const name of ['spawn', 'fork']) cp[name] = failLater(name, cp[name] as AnyFn, false);
  for (const name of ['exec', 'execFile']) cp[name] = failLater(name, cp[name] as AnyFn, true);
  for (const name of ['execSync', 'execFileSync', 'spawnSync']) cp[name] = refuseNow(name, cp[name] as AnyFn);
  syncBuiltinESMExports();
}
