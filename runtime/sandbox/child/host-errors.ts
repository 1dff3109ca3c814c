// How an error thrown by component code is sent to the service: its stack mapped to the
// component's files, and a denied file or process call explained.
import { format } from 'node:util';
import type { SerializedError } from '../../contract/host-protocol';
import { fullStackOf } from './stack-map';

/** What a denied file or process operation adds to its error, so the author knows why and what to do. */
const DENIED_HINT = 'components may read only their own code, the package cache, /tmp and folders granted to the source, write only to /tmp and granted folders, and start no processes or threads (see docs/security.md to grant a folder)';

/** An error (or anything thrown) as the service records it. */
export function serializeError(err: unknown): SerializedError {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ERR_ACCESS_DENIED' && !err.message.includes('components may not')) {
      const resource = (err as { resource?: unknown }).resource;
      const message = `${err.message}${typeof resource === 'string' && resource !== '' ? ` (${resource})` : ''}: ${DENIED_HINT}`;
      return { name: err.name, message, stack: err.stack?.replace(err.message, message) };
    }
    // Reading `stack` formats it (lazily, through the source map), which also keeps the full one.
    const stack = err.stack;
    const fullStack = fullStackOf(err);
    return { name: err.name, message: err.message, stack, ...(fullStack && fullStack !== stack ? { fullStack } : {}) };
  }
  return { name: 'Error', message: typeof err === 'string' ? err : format('%o', err) };
}
