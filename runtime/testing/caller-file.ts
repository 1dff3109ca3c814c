// The test file a call of `spout/testing` came from, read from the stack: paths in a test are
// relative to its file (as imports are), and its snapshots are kept beside it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Spout's own code (dist/ or runtime/): frames there are not the caller's. */
const OWN = [path.dirname(fileURLToPath(import.meta.url))];

/** The first file on the stack outside Spout's own code and Node's, or null. */
export function callerFile(): string | null {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 50;
  Error.captureStackTrace(holder, callerFile);
  Error.stackTraceLimit = limit;
  for (const line of (holder.stack ?? '').split('\n').slice(1)) {
    const found = /\(?((?:file:\/\/)?\/[^():]+|[A-Za-z]:\\[^():]+):\d+:\d+\)?\s*$/.exec(line);
    if (!found) continue;
    const file = found[1]?.startsWith('file://') ? fileURLToPath(found[1]) : (found[1] as string);
    if (OWN.some((dir) => file.startsWith(dir + path.sep)) || file.includes(`${path.sep}node_modules${path.sep}`)) continue;
    return file;
  }
  return null;
}
