// `spout doctor`: every file of a data dir read with the check its store applies at a start
// (docs/storage.md lists them), damaged parts reported with file and line; with `repair`, set
// aside the way a start sets them aside, plus what a start leaves alone (temp files a crash left,
// a stale server.json, hosts still running from an earlier service).
import fs from 'node:fs';
import path from 'node:path';
import { checkOutboxLine } from '../../delivery/worker/outbox-lines';
import { parseDedupe } from '../../engine/events/dedupe';
import { ContentFiles } from '../../lib/content-files';
import type { FileProblem, ProblemSink } from '../../lib/file-problems';
import { scanJsonLines } from '../../lib/jsonl-scan';
import { inspectStateFile, readStateFile, type StateInspection, writeStateFileSync } from '../../lib/state-file';
import { hostMarker, hostsFile, isHostOf, readPids } from '../../sandbox/host-records';
import { parseCassette } from '../../store/cassette-store';
import { ComponentTexts } from '../../store/component-content';
import { checkStoreLine } from '../../store/data-store-file';
import { checkEventLine } from '../../store/event-store';
import { checkInvocationLine } from '../../store/invocation-store';
import { checkLogLine } from '../../store/log-store';
import { parseSettings as parseMcpSettings } from '../../store/mcp-settings';
import type { MetadataShape } from '../../store/metadata';
import { parseMetadata, setAsideRecords } from '../../store/metadata-records';
import { parsePayloads } from '../../store/payload-store';
import { parseDb } from '../../store/source-dbs';
import { checkRunLine } from '../../store/workflow-run-log';
import { parseLinks } from '../../sync/links';

/** What the doctor found (and, repairing, did). */
export interface DoctorReport {
  dataDir: string;
  /** Files read. */
  files: number;
  /** What is wrong and was left as it is. */
  problems: FileProblem[];
  /** What was wrong and was mended (repairing only). */
  repairs: FileProblem[];
}

/** The JSON-lines files of a data dir, by folder (or file), with the check of each. */
const LINE_FILES: Array<{ where: string; check: (value: unknown) => string | null }> = [
  { where: 'events', check: checkEventLine },
  { where: 'logs', check: checkLogLine },
  { where: 'invocations', check: checkInvocationLine },
  { where: 'workflow-runs', check: checkRunLine },
  { where: 'data_stores', check: checkStoreLine },
  { where: 'deliveries.jsonl', check: checkOutboxLine },
];

/** The whole-file state of a data dir, by folder (or file), with the parser of each. */
const STATE_FILES: Array<{ where: string; parse: (text: string) => unknown }> = [
  { where: 'db', parse: parseDb },
  { where: 'dedupe', parse: parseDedupe },
  { where: 'cassettes', parse: parseCassette },
  { where: 'payloads', parse: parsePayloads },
  { where: 'sync-links.json', parse: parseLinks },
  { where: 'mcp.json', parse: parseMcpSettings },
];

/** Checks a data dir; with `repair`, mends what it finds. The service must not be running for a repair. */
export function examine(dataDir: string, repair: boolean): DoctorReport {
  const report: DoctorReport = { dataDir, files: 0, problems: [], repairs: [] };
  const found: ProblemSink = (p) => report.problems.push(p);
  const done: ProblemSink = (p) => report.repairs.push(p);

  const metadata = path.join(dataDir, 'metadata.json');
  if (fs.existsSync(metadata)) {
    report.files++;
    checkMetadata(metadata, repair, found, done);
  }
  for (const { where, parse } of STATE_FILES) {
    for (const file of filesOf(dataDir, where, '.json')) {
      report.files++;
      checkState(file, parse, repair, found, done);
    }
  }
  for (const { where, check } of LINE_FILES) {
    for (const file of filesOf(dataDir, where, '.jsonl')) {
      report.files++;
      scanJsonLines(file, { check, onRecord: () => undefined, repair, report: repair ? done : found });
    }
  }
  checkKeys(dataDir, found);
  checkLeftovers(dataDir, repair, found, done);
  return report;
}

/** metadata.json as a whole (else its previous version), then record by record, as a start reads it; then the content files its components name. */
function checkMetadata(file: string, repair: boolean, found: ProblemSink, done: ProblemSink): void {
  if (!repair) {
    checkState(file, parseMetadata, false, found, done);
    try {
      const { data, leftOut } = parseMetadata(fs.readFileSync(file, 'utf8'));
      for (const l of leftOut) found({ file, message: `${l.problem}; --repair (or the next start) leaves it out` });
      checkContent(file, data, found);
    } catch {
      // reported as damaged above
    }
    return;
  }
  const read = readStateFile(file, parseMetadata, done);
  if (read.value && read.value.leftOut.length > 0) {
    setAsideRecords(file, read.value.leftOut, done);
    writeStateFileSync(file, JSON.stringify(read.value.data, null, 2));
  }
  // Nothing can make a missing text up again: reported, with the fix, repairing or not.
  if (read.value) checkContent(file, read.value.data, found);
}

/** Components naming a content file (`components/<sha256>.<kind>`) that is missing or whose content is not what its name says. */
function checkContent(file: string, data: Partial<MetadataShape>, found: ProblemSink): void {
  const components = data.components ?? [];
  const texts = new ComponentTexts(new ContentFiles(path.join(path.dirname(file), 'components')));
  texts.attach(components);
  for (const problem of texts.problems({ components, sources: data.sources ?? [] }, file, true)) found(problem);
}

function checkState(file: string, parse: (text: string) => unknown, repair: boolean, found: ProblemSink, done: ProblemSink): void {
  if (repair) return void readStateFile(file, parse, done);
  const inspection = inspectStateFile(file, parse);
  if (inspection.problem === null) return;
  found({ file, message: `damaged (${inspection.problem}); ${MENDS[inspection.mend]}` });
}

/** What --repair (or the next start) does with a damaged state file, as `spout doctor` says it. */
const MENDS: Record<Exclude<StateInspection, { problem: null }>['mend'], string> = {
  'keep-document': 'it starts with a whole document: --repair (or the next start) keeps it, nothing is lost',
  copy: 'its copy (.copy) is good: --repair (or the next start) restores it, nothing is lost',
  previous: 'its copy is not usable but its previous version (.prev) is good: --repair (or the next start) puts it back, losing the last change',
  none: 'its copy and its previous version are damaged or missing: --repair sets it aside',
};

/** The files of a folder of the data dir ending in `ext` (or the one file named `where`). */
function filesOf(dataDir: string, where: string, ext: string): string[] {
  const full = path.join(dataDir, where);
  if (where.endsWith(ext)) return fs.existsSync(full) ? [full] : [];
  let names: string[];
  try {
    names = fs.readdirSync(full);
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith(ext)).map((n) => path.join(full, n));
}

/** The API key and the secret key: reported only (neither can be made up again without loss). */
function checkKeys(dataDir: string, found: ProblemSink): void {
  const apiKey = path.join(dataDir, 'api-key');
  if (fs.existsSync(apiKey) && fs.readFileSync(apiKey, 'utf8').trim() === '') {
    found({ file: apiKey, message: 'empty: the next start makes a new key (clients that kept the old one must be given the new one)' });
  }
  const secretKey = path.join(dataDir, 'secret.key');
  if (fs.existsSync(secretKey) && Buffer.from(fs.readFileSync(secretKey, 'utf8').trim(), 'base64').length !== 32) {
    found({ file: secretKey, message: 'does not hold a 32-byte key: the service will not start with it. Restore it from a backup; moving it away has a new key made, and every stored secret (webhook signing secrets, secret props, accounts) is lost' });
  }
}

/** What a crash leaves behind: temp files, a stale server.json, hosts of an earlier service. */
function checkLeftovers(dataDir: string, repair: boolean, found: ProblemSink, done: ProblemSink): void {
  const serverFile = path.join(dataDir, 'server.json');
  const running = servicePid(serverFile);
  if (running === 'stale') (repair ? done : found)({ file: serverFile, message: `names a service that is not running${repair ? '; removed' : ' (a crash); --repair removes it'}` });
  if (repair && running === 'stale') fs.rmSync(serverFile, { force: true });
  for (const file of tempFiles(dataDir)) {
    if (repair) fs.rmSync(file, { force: true });
    (repair ? done : found)({ file, message: `a temp file a crash left behind${repair ? '; removed' : '; --repair removes it'}` });
  }
  const marker = hostMarker(dataDir);
  const hosts = readPids(hostsFile(dataDir)).filter((pid) => isHostOf(pid, marker));
  if (hosts.length > 0 && typeof running !== 'number') {
    if (repair) for (const pid of hosts) process.kill(pid, 'SIGKILL');
    (repair ? done : found)({ file: hostsFile(dataDir), message: `component hosts of an earlier service are still running (pid ${hosts.join(', ')})${repair ? '; stopped' : '; --repair (or the next start) stops them'}` });
  }
}

/** The pid of the service using the data dir, 'stale' when server.json names one that is gone, null when there is none. */
export function servicePid(serverFile: string): number | 'stale' | null {
  let pid: unknown;
  try {
    pid = (JSON.parse(fs.readFileSync(serverFile, 'utf8')) as { pid?: unknown }).pid;
  } catch {
    return fs.existsSync(serverFile) ? 'stale' : null;
  }
  if (typeof pid !== 'number') return 'stale';
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : 'stale';
  }
}

/** Temp files of interrupted writes, in the data dir and its folders (not in components' own folders). */
function tempFiles(dataDir: string): string[] {
  const found: string[] = [];
  const look = (dir: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory() && depth === 0 && !['dirs', 'packages'].includes(e.name)) look(full, 1);
      else if (e.isFile() && e.name.endsWith('.tmp')) found.push(full);
    }
  };
  look(dataDir, 0);
  return found;
}
