// The test file a call of `spout/testing` came from, read from the stack: paths in a test are
// relative to its file (as imports are), and its snapshots are kept beside it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Spout's own code: its dist/ and runtime/ folders (this module runs from dist/ when built, from
 * runtime/testing/ under tsx).
 */
const OWN = ((): string[] => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = path.basename(here) === 'dist' ? path.dirname(here) : path.resolve(here, '..', '..');
  return [path.join(root, 'dist') + path.sep, path.join(root, 'runtime') + path.sep];
})();

/** Whether a file, or a stack line naming one, is Spout's own code. */
export function isSpoutCode(text: string): boolean {
  return OWN.some((dir) => text.includes(dir));
}

/**
 * The files on the stack outside Spout's own code, Node's and node_modules (a runner's own),
 * innermost first. Read from the call sites themselves: the files as loaded, whatever source maps
 * would show (a `.ts` test is its own file; Spout's bundle is dist/, not the sources it maps to).
 */
export function callerFiles(): string[] {
  const { prepareStackTrace, stackTraceLimit } = Error;
  const holder: { stack?: NodeJS.CallSite[] } = {};
  let sites: NodeJS.CallSite[];
  try {
    Error.stackTraceLimit = 50;
    Error.prepareStackTrace = (_error, callSites) => callSites;
    Error.captureStackTrace(holder, callerFiles);
    // The stack is formatted when first read: read it while our formatter is in place.
    sites = holder.stack ?? [];
  } finally {
    Error.prepareStackTrace = prepareStackTrace;
    Error.stackTraceLimit = stackTraceLimit;
  }
  return sites
    .map((site) => site.getFileName())
    .filter((f): f is string => typeof f === 'string' && (f.startsWith('file:') || path.isAbsolute(f)))
    .map((f) => (f.startsWith('file:') ? fileURLToPath(f) : f))
    .filter((f) => !isSpoutCode(f) && !f.split(path.sep).includes('node_modules'));
}

/** The first file on the stack outside Spout's own code and Node's, or null. */
export function callerFile(): string | null {
  return callerFiles()[0] ?? null;
}
