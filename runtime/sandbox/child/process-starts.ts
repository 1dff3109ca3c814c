// Starting a program, which no host may do (docs/security.md). Node's permission model refuses it
// by throwing at once, where a program that cannot start fails later: its `error` event, or the
// callback of `exec`/`execFile`. Packages count on the second (google-auth-library asks the
// `gcloud` CLI for a project id, and goes on without one when the callback says it failed), so the
// asynchronous starts fail that way here too, with the permission model's error; the synchronous
// ones still throw it, as a failed synchronous start does.
import childProcess, { ChildProcess } from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { withPropertiesOf } from './same-properties';

type AnyFn = (...args: unknown[]) => unknown;

/** Wraps a start so that its refusal arrives as a failed start: on the returned child's `error` event, and to a trailing callback. */
function failLater(start: AnyFn, takesCallback: boolean): AnyFn {
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    try {
      return start.apply(this, args);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ERR_ACCESS_DENIED') throw err;
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
  return withPropertiesOf(wrapped, start);
}

/** Makes `spawn`, `fork`, `exec` and `execFile` fail as a program that could not start (imports of them included). */
export function installProcessStarts(): void {
  const cp = childProcess as unknown as Record<string, AnyFn>;
  for (const name of ['spawn', 'fork']) cp[name] = failLater(cp[name] as AnyFn, false);
  for (const name of ['exec', 'execFile']) cp[name] = failLater(cp[name] as AnyFn, true);
  syncBuiltinESMExports();
}
