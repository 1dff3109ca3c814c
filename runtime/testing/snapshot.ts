// Snapshots for any test runner (node:test on Node 20 has none): `<test file>.snap.json` beside the
// test file that called, one entry per `matchSnapshot` call, keyed by the test's name and the call's
// number in it. Jest's rules: a missing snapshot is written, except under CI, where it fails.
import { AssertionError } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { unifiedDiff } from '../lib/unified-diff';
import { callerFiles, isSpoutCode } from './caller-file';
import type { SnapshotOwner } from './public-api';

const TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$/;

/** Each snapshot file read so far, by path: its entries as they stand. */
const files = new Map<string, Record<string, unknown>>();
/** Calls so far per snapshot file and key base: the `#n` of the next one. */
const calls = new Map<string, number>();

/** Compares `value` with its snapshot in `<test file>.snap.json`; writes it when missing (not under CI) or under SPOUT_UPDATE_SNAPSHOTS=1. */
export function matchSnapshot(owner: SnapshotOwner, value: unknown, name?: string): void {
  const received = canonicalJson(value);
  const file = `${callerTestFile()}.snap.json`;
  const base = name ? `${testNameOf(owner)}: ${name}` : testNameOf(owner);
  const count = (calls.get(`${file}\0${base}`) ?? 0) + 1;
  calls.set(`${file}\0${base}`, count);
  const key = `${base} #${count}`;
  const entries = entriesOf(file);
  const update = process.env.SPOUT_UPDATE_SNAPSHOTS === '1';
  const shown = path.basename(file);
  if (!Object.hasOwn(entries, key)) {
    if (isCi() && !update) throw failure(`no snapshot "${key}" in ${shown}, and none is written under CI: run "spout test --update-snapshots" and commit ${shown}`);
    save(file, entries, key, received);
    tell(owner, `snapshot "${key}" written to ${shown}`);
    return;
  }
  const kept = canonicalJson(entries[key]);
  if (kept === received) return;
  if (update) {
    save(file, entries, key, received);
    tell(owner, `snapshot "${key}" updated in ${shown}`);
    return;
  }
  const diff = unifiedDiff(`${kept}\n`, `${received}\n`, ['snapshot', 'received']);
  throw failure(`snapshot "${key}" in ${shown} does not match (- snapshot, + received); if the change is meant, run "spout test --update-snapshots"\n${diff}`, { actual: JSON.parse(received), expected: entries[key] });
}

/** An assertion failure whose stack starts at the test's own line (Spout's frames dropped). */
function failure(message: string, values: { actual?: unknown; expected?: unknown } = {}): AssertionError {
  const error = new AssertionError({ message, ...values, operator: 'matchSnapshot' });
  error.stack = error.stack
    ?.split('\n')
    .filter((line) => !(line.startsWith('    at ') && (isSpoutCode(line) || line.includes('node:internal/assert'))))
    .join('\n');
  return error;
}

/** The test's name as node:test (`t.name`), Vitest and Jest (`ctx.task.name`) give it, or the text given. */
function testNameOf(owner: SnapshotOwner): string {
  const name = typeof owner === 'string' ? owner : 'task' in owner ? owner.task?.name : owner.name;
  if (typeof name !== 'string' || !name) throw new TypeError("matchSnapshot: the first argument is the test (node:test `t`, Vitest's context) or its name as text");
  return name;
}

/** `value` as pretty JSON with object keys sorted, so snapshots compare content, not key order. */
function canonicalJson(value: unknown): string {
  const sorted = (_key: string, v: unknown): unknown => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v);
  const text = JSON.stringify(value, sorted, 2) as string | undefined;
  if (text === undefined) throw new TypeError(`matchSnapshot: a value of type ${typeof value} has no JSON form; snapshot an object, array, text, number, boolean or null`);
  return text;
}

/** CI as Jest reads it: `CI` set to anything but empty, `0` or `false`. */
function isCi(): boolean {
  const ci = process.env.CI;
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}

/** The test file that called: a `*.test.*`/`*.spec.*` file on the stack preferred over a helper it calls. */
function callerTestFile(): string {
  const outside = callerFiles();
  const file = outside.find((f) => TEST_FILE.test(f)) ?? outside[0];
  if (!file) throw new Error('matchSnapshot: cannot tell which test file called it; call it from the test file itself');
  return file;
}

/** The entries of a snapshot file (read once per process). */
function entriesOf(file: string): Record<string, unknown> {
  let entries = files.get(file);
  if (entries) return entries;
  let text: string | null = null;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  try {
    entries = text === null ? {} : (JSON.parse(text) as Record<string, unknown>);
  } catch (err) {
    throw new Error(`${file} is not JSON (${(err as Error).message}): mend it, or delete it and run "spout test --update-snapshots" to write it again`);
  }
  if (!entries || typeof entries !== 'object' || Array.isArray(entries)) throw new Error(`${file} must hold one JSON object of snapshots by name: delete it and run "spout test --update-snapshots"`);
  files.set(file, entries);
  return entries;
}

/** Sets one entry and writes the whole file at once (keys sorted, a temp file renamed over it): an interrupted run leaves the old file whole. */
function save(file: string, entries: Record<string, unknown>, key: string, text: string): void {
  entries[key] = JSON.parse(text);
  const sorted = Object.fromEntries(
    Object.keys(entries)
      .sort()
      .map((k) => [k, entries[k]]),
  );
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(sorted, null, 2)}\n`);
  fs.renameSync(temp, file);
}

/** A diagnostic line in node:test's report (`t.diagnostic`) when the owner has one. */
function tell(owner: SnapshotOwner, message: string): void {
  const diagnostic = typeof owner === 'object' ? (owner as { diagnostic?: unknown }).diagnostic : undefined;
  if (typeof diagnostic === 'function') diagnostic.call(owner, message);
}
