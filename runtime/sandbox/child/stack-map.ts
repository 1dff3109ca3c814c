// Host side: stack traces that point at the component's own files. A bundle carries an inline
// source map; frames in the bundle are mapped back through it, and the host's own frames (and
// Node's internals) are left out of `err.stack`, which is what logs and errors show. The full
// mapped stack stays available for a "show runtime frames" toggle.
import { SourceMap } from 'node:module';

const INLINE_MAP = /\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/;

/** Full stacks (runtime frames included) of errors whose `stack` was formatted here. */
const fullStacks = new WeakMap<object, string>();

/** The full mapped stack of an error, runtime frames included; undefined when it was not mapped. */
export function fullStackOf(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null ? fullStacks.get(err) : undefined;
}

/**
 * Maps stack frames of code evaluated from `bundle` (under `filename`, with `firstLineOffset`
 * columns of wrapper before its first line) to the component's sources, and hides the frames of
 * `runtimeFile` and of Node itself.
 */
export function installStackMapping(bundle: string, filename: string, firstLineOffset: number, runtimeFile: string): void {
  const match = INLINE_MAP.exec(bundle.slice(-Math.min(bundle.length, 8 * 1024 * 1024)));
  let map: SourceMap | null = null;
  try {
    if (match) map = new SourceMap(JSON.parse(Buffer.from(match[1] as string, 'base64').toString('utf8')));
  } catch {
    map = null; // a broken map: frames stay as they are
  }
  const frame = (site: NodeJS.CallSite): { text: string; runtime: boolean } => {
    const file = site.getFileName() ?? '';
    const line = site.getLineNumber();
    const column = site.getColumnNumber();
    if (map && file === filename && line !== null && column !== null) {
      const entry = map.findEntry(line - 1, column - 1 - (line === 1 ? firstLineOffset : 0)) as { originalSource?: string; originalLine?: number; originalColumn?: number };
      if (entry.originalSource !== undefined && entry.originalLine !== undefined && entry.originalColumn !== undefined) {
        const where = `${entry.originalSource}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
        const name = site.getFunctionName() ?? site.getMethodName();
        const prefix = site.isAsync() ? 'async ' : '';
        return { text: name ? `${prefix}${name} (${where})` : `${prefix}${where}`, runtime: false };
      }
    }
    return { text: site.toString(), runtime: file === runtimeFile || file.startsWith('node:') || (file === '' && site.isNative()) };
  };
  Error.prepareStackTrace = (err: Error, sites: NodeJS.CallSite[]) => {
    const head = headerOf(err);
    const frames = sites.map(frame);
    const user = frames.filter((f) => !f.runtime);
    const format = (list: Array<{ text: string }>) => [head, ...list.map((f) => `    at ${f.text}`)].join('\n');
    if (typeof err === 'object' && err !== null) fullStacks.set(err, format(frames));
    // An error raised by the runtime itself keeps its frames: hiding them all would say nothing.
    return format(user.length > 0 ? user : frames);
  };
}

function headerOf(err: Error): string {
  try {
    const name = err?.name ?? 'Error';
    const message = err?.message ?? '';
    return message ? `${name}: ${message}` : String(name);
  } catch {
    return 'Error';
  }
}
