import path from 'node:path';
import type { InvocationView } from '../../contract/invocation-api';
import type { EventSummary, LogLineView } from '../../contract/source-api';

/** Colours only on a terminal, and never with NO_COLOR set. */
const colour = (stream: NodeJS.WriteStream) => Boolean(stream.isTTY) && !process.env.NO_COLOR && process.env.TERM !== 'dumb';

const paint =
  (code: string) =>
  (text: string, stream: NodeJS.WriteStream = process.stdout) =>
    colour(stream) ? `\x1b[${code}m${text}\x1b[0m` : text;
export const bold = paint('1');
export const dim = paint('2');
export const red = paint('31');
export const green = paint('32');
export const yellow = paint('33');
export const cyan = paint('36');

/** A path as the user should read it: relative under the current folder, absolute elsewhere (never `../x`). */
export function displayPath(file: string): string {
  const absolute = path.resolve(file);
  const relative = path.relative(process.cwd(), absolute);
  return !relative ? absolute : relative.startsWith('..') || path.isAbsolute(relative) ? absolute : relative;
}

export function out(text = ''): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** Progress and notices: stderr, so stdout stays the command's result. */
export function note(text: string): void {
  process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** Prints warnings (rules a component or its configuration does not follow; it runs anyway) on stderr, one a line. */
export function printWarnings(warnings: ReadonlyArray<{ path: string; message: string }> | undefined): void {
  for (const w of warnings ?? []) note(`${yellow('warning', process.stderr)}: ${w.path ? `${w.path}: ` : ''}${w.message}`);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** One JSON value per line (streams with --json). */
export function printJsonLine(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/** Columns padded to their widest cell; the last column is not padded. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [bold(line(header)), ...rows.map(line)].join('\n');
}

/** Epoch seconds or ms as local `YYYY-MM-DD HH:MM:SS`. */
export function dateTime(epoch: number): string {
  const d = new Date(epoch < 1e12 ? epoch * 1000 : epoch);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** Local `HH:MM:SS` of epoch ms. */
export function clock(ms: number): string {
  return dateTime(ms).slice(11);
}

function compact(value: unknown, max: number): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** An event as a line for the live stream: time, channel, summary and the data (cut to fit). */
export function eventLine(e: EventSummary): string {
  const channel = e.metadata.name ? ` [${e.metadata.name}]` : '';
  const summary = e.metadata.summary ? `${e.metadata.summary}  ` : '';
  return `${dim(clock(e.indexed_at_ms))} ${cyan('event')}${channel} ${bold(summary)}${compact(e.event, 400)}`;
}

/** An event in full, for `spout events`. */
export function eventBlock(e: EventSummary): string {
  const head = [dim(dateTime(e.indexed_at_ms)), cyan(e.id), e.metadata.name ? `[${e.metadata.name}]` : '', e.metadata.summary ? bold(e.metadata.summary) : ''].filter(Boolean).join('  ');
  const body = typeof e.event === 'string' && e.truncated ? `${e.event}…` : JSON.stringify(e.event, null, 2);
  return `${head}\n${(body ?? 'undefined').replace(/^/gm, '  ')}`;
}

/** A log line of a source. */
export function logLine(l: LogLineView): string {
  const level = l.level === 'error' ? red(l.level.padEnd(5)) : l.level === 'warn' ? yellow(l.level.padEnd(5)) : dim(l.level.padEnd(5));
  return `${dim(clock(l.ts))} ${level} ${l.message}`;
}

/** An invocation as a line: time, status, trigger (method and path for HTTP), duration, emits, error. */
export function invocationLine(r: InvocationView): string {
  const status = r.status === 'ok' ? green(r.status.padEnd(7)) : red(r.status.padEnd(7));
  const what = r.request ? `${r.request.method} ${r.request.path}${r.request.query ? `?${r.request.query}` : ''}${r.response ? ` → ${r.response.status}` : ''}` : r.hook ? `hook ${r.hook}` : r.trigger;
  // A record lists its first emits and counts the rest (emits_omitted).
  const emitted = r.emits.filter((e) => !e.dropped).length + (r.emits_omitted?.stored ?? 0);
  const dropped = r.emits.filter((e) => e.dropped).length + (r.emits_omitted?.dropped ?? 0);
  const counts = `${emitted} emitted${dropped ? `, ${dropped} deduped` : ''}`;
  const error = r.error ? `  ${red(r.error.message.split('\n')[0] ?? '')}` : '';
  return `${dim(clock(r.started_at))} ${status} ${cyan(r.id)} ${bold(what)} ${dim(`${r.duration_ms} ms, ${counts}${r.replay_of ? `, replay of ${r.replay_of}` : ''}`)}${error}`;
}
