// A component file loaded for a test as a deploy loads one: its relative imports bundled, its
// packages from the cache, loaded in a component host of its own under the same permissions,
// checked, and configured (props checked by their kinds, `additionalProps` run, app props' `$auth`
// from the test's accounts). Sources and actions (test-source.ts, test-action.ts) build on it.
import fs from 'node:fs';
import path from 'node:path';
import { validateComponent } from '../components/validate';
import type { ConfigurableProp, ValidComponent } from '../contract/component-shape';
import type { InvocationTarget, SandboxContext } from '../contract/host-protocol';
import { maskerFor } from '../engine/network/network-service';
import { additionalPropsOf, mergeProps } from '../engine/sources/dynamic-props';
import { ComponentError } from '../lib/error-kinds';
import { checkConfiguredProps } from '../props/configured-props';
import { dirFolders, dirGrants } from '../props/dir/dir-folders';
import { Sandbox } from '../sandbox/sandbox';
import type { InvocationResult } from '../sandbox/sandbox-options';
import { makeTempFolder } from '../sandbox/temp-folder';
import { runDataStoreOp } from '../store/data-store-ops';
import { DataStores } from '../store/data-stores';
import type { SourceDb } from '../store/source-dbs';
import { callerFile } from './caller-file';
import { timeMs } from './durations';
import type { LoadOptions, TestError, TestLog } from './public-api';
import { testBundle } from './test-bundle-cache';
import { TestNetwork } from './test-network';
import { testCacheDir, testRuntime } from './test-runtime';

/** A run's default limit in a test (real ms). */
const DEFAULT_TIMEOUT_MS = 30_000;

/** What an invocation came to, with the logs it wrote. */
export interface TestInvocation {
  result: InvocationResult;
  logs: TestLog[];
}

/** A component loaded and configured for a test. */
export interface TestComponent {
  /** The component file, absolute. */
  file: string;
  /** Its id in this test process (`test_1`, `test_2`… in load order). */
  id: string;
  valid: ValidComponent;
  /** Its props, those `additionalProps` added included. */
  props: ConfigurableProp[];
  /** Its configured values as the props' kinds keep them (a timer's static schedule, say). */
  values: Record<string, unknown>;
  network: TestNetwork;
  /** The test clock's time (epoch ms), as the host last reported it. */
  clock: { nowMs: number };
  /** Runs one invocation and collects its logs. */
  invoke(target: InvocationTarget, onRespond?: Parameters<Sandbox['invoke']>[1]): Promise<TestInvocation>;
  close(): Promise<void>;
}

/** Where a file named in a test is: relative to the test file that names it (as an import), else to the current folder. */
function testPath(file: string, what: string): string {
  if (path.isAbsolute(file)) {
    if (!fs.existsSync(file)) throw new Error(`${file}: no such ${what}`);
    return file;
  }
  const caller = callerFile();
  const beside = caller ? path.resolve(path.dirname(caller), file) : null;
  const found = beside && fs.existsSync(beside) ? beside : path.resolve(file);
  if (!fs.existsSync(found)) throw new Error(`${file}: no such ${what}${beside ? ` (looked beside the test, ${beside}, and in ${process.cwd()})` : ''}`);
  return found;
}

/**
 * The component file and options of a load, their paths resolved as the test names them. A cassette
 * named explicitly must exist unless `spout test --record` is to write it.
 */
export function resolveLoad<T extends LoadOptions>(file: string, options: T): { file: string; options: T } {
  const cassette = options.cassette;
  if (typeof cassette !== 'string') return { file: testPath(file, 'component file'), options };
  const recording = process.env.SPOUT_TEST_RECORD === '1';
  const caller = callerFile();
  const named = path.isAbsolute(cassette) || !caller ? path.resolve(cassette) : path.resolve(path.dirname(caller), cassette);
  const resolved = recording && !fs.existsSync(named) ? named : testPath(cassette, 'cassette file; record one with `spout test --record`, or write it (docs/testing.md)');
  return { file: testPath(file, 'component file'), options: { ...options, cassette: resolved } };
}

/** The URL of an HTTP interface prop in a test: unreachable, and the same on every run (a recorded webhook registration matches). */
export function endpointUrl(file: string, prop: string): string {
  return `https://test.spout.invalid/e/${path.basename(file).replace(/\.[^.]+$/, '')}/${prop}`;
}

/** Bundles, loads, checks and configures a component file; `db` is a source's `this.db`. */
export async function openTestComponent(file: string, options: LoadOptions, kind: 'source' | 'action', db?: SourceDb): Promise<TestComponent> {
  const runtime = testRuntime();
  const stem = path.basename(file).replace(/\.[^.]+$/, '');
  const id = runtime.nextOwner();
  const clock = { nowMs: options.now === undefined ? Date.now() : timeMs(options.now) };
  const grants = dirGrants({ read: (options.allowRead ?? []).map((d) => path.resolve(d)), write: [] }, runtime.workDir, id);
  const temp = makeTempFolder(runtime.workDir, id);
  // Its host boots while the file is bundled (or read from the bundle cache), unless the one started at
  // spout/testing's import is its; Sandbox.load acquires that one.
  const host = runtime.takePrestarted(id, grants) ?? runtime.hosts.startAhead(grants, temp.path);
  const bundle = await testBundle(file, runtime.packages, testCacheDir()).catch((err: unknown) => {
    runtime.hosts.dropAhead(host);
    throw asLoadError(file, err);
  });
  const logs = new Map<string | null, TestLog[]>();
  let network: TestNetwork | null = null;
  // Its data_store props get empty stores of their own, on the test's clock (TTLs expire as it moves).
  const stores = new DataStores(fs.mkdtempSync(path.join(runtime.workDir, 'stores-')), { now: () => clock.nowMs });
  let loaded: Awaited<ReturnType<typeof Sandbox.load>>;
  try {
    loaded = await Sandbox.load({
      bundle: bundle.code,
      filename: bundle.filename,
      hosts: runtime.hosts,
      grants,
      temp,
      label: `${kind} ${path.basename(file)}`,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxQueue: 1000,
      db,
      clock,
      onLog: (log) => {
        const lines = logs.get(log.invocationId) ?? [];
        lines.push({ level: log.level, message: log.message });
        logs.set(log.invocationId, lines);
      },
      onStrayEmits: () => undefined,
      onDataStore: (storeId, call) => runDataStoreOp(stores, storeId, call),
      onNetworkMatch: (request) => (network ? network.answer(request) : { response: null, entry: null, miss: 'the component made a call while loading; calls are answered once it is configured' }),
    });
  } catch (err) {
    throw asLoadError(file, err);
  }
  const { sandbox, description } = loaded;
  const close = async () => {
    await sandbox.close();
    await stores.close();
  };
  try {
    const valid = validateComponent(description);
    if ((valid.type ?? 'source') !== kind) throw new Error(`${file} is ${valid.type === 'action' ? 'an action: load it with loadAction()' : 'a source: load it with loadSource()'}`);
    const auth = options.accounts ?? {};
    const configured = configuredValues(valid.configurable_props, options.props ?? {}, auth);
    for (const prop of valid.configurable_props) if (prop.type === 'data_store' && configured[prop.name] === undefined) configured[prop.name] = { dataStore: (await stores.create(prop.name)).id };
    const secrets = (props: readonly ConfigurableProp[], values: Record<string, unknown>) => props.filter((p) => p.secret).map((p) => values[p.name]);
    network = new TestNetwork(options.cassette === false ? null : path.resolve(path.dirname(file), options.cassette ?? `${stem}.cassette.json`), process.env.SPOUT_TEST_RECORD === '1', maskerFor(flatAuth(auth), secrets(valid.configurable_props, configured)));
    const contextFor = (props: ConfigurableProp[], values: Record<string, unknown>, dynamic: boolean): SandboxContext => ({
      sourceId: id,
      props: values,
      endpoints: Object.fromEntries(props.filter((p) => p.type === '$.interface.http').map((p) => [p.name, endpointUrl(file, p.name)])),
      auth,
      dynamicProps: dynamic,
      dataStores: Object.values(values).flatMap((v) => (v && typeof v === 'object' && typeof (v as { dataStore?: unknown }).dataStore === 'string' ? [(v as { dataStore: string }).dataStore] : [])),
      network: (network as TestNetwork).mode,
      dirs: dirFolders(props, values, id, runtime.workDir),
    });
    const own = valid.configurable_props;
    sandbox.configure(contextFor(own, checkConfiguredProps(own, configured, accountsOf(own), (sid) => stores.exists(sid)).values, false));
    const dynamic = await additionalPropsOf(sandbox, valid.type);
    const props = dynamic ? mergeProps(own, dynamic) : own;
    const { values, problems } = checkConfiguredProps(props, configured, accountsOf(props), (sid) => stores.exists(sid));
    if (problems.length > 0) throw new ComponentError(problems);
    sandbox.configure(contextFor(props, values, dynamic !== null));
    const invoke = async (target: InvocationTarget, onRespond?: Parameters<Sandbox['invoke']>[1]): Promise<TestInvocation> => {
      const result = await sandbox.invoke(target, onRespond);
      if (result.clockMs !== undefined) clock.nowMs = result.clockMs;
      const lines = [...(logs.get(null) ?? []), ...(logs.get(result.invocationId) ?? [])];
      logs.delete(null);
      logs.delete(result.invocationId);
      return { result, logs: lines };
    };
    return { file, id, valid, props, values, network, clock, invoke, close };
  } catch (err) {
    await close();
    throw asLoadError(file, err);
  }
}

/** A test's error for a run: its stack pointing at the component's own files, by their full paths. */
export function testError(error: InvocationResult['error'], file: string): TestError | null {
  if (!error) return null;
  const dir = path.dirname(file);
  // Stacks name the component's files as bundled, relative to its folder: a full path opens in an editor.
  const stack = error.stack?.replace(/\(([^()\s]+\.[cm]?[jt]s):(\d+):(\d+)\)/g, (all, name: string, line: string, col: string) => (path.isAbsolute(name) || name.startsWith('node:') ? all : `(${path.join(dir, name)}:${line}:${col})`)) ?? null;
  return { name: error.name, message: error.message, stack };
}

/** The values as `configured_props` takes them: the test's props, and for each app prop with an account, that account. */
function configuredValues(props: readonly ConfigurableProp[], given: Record<string, unknown>, accounts: Record<string, unknown>): Record<string, unknown> {
  const values = { ...given };
  for (const prop of props) if (prop.type === 'app' && accounts[prop.name] !== undefined) values[prop.name] = { authProvisionId: `apn_test_${prop.name}` };
  for (const name of Object.keys(accounts)) {
    if (!props.some((p) => p.name === name && p.type === 'app'))
      throw new ComponentError([
        {
          path: `accounts.${name}`,
          message: `the component has no app prop \`${name}\`; name accounts by app prop (${
            props
              .filter((p) => p.type === 'app')
              .map((p) => p.name)
              .join(', ') || 'it has none'
          })`,
        },
      ]);
  }
  return values;
}

/** The test's account behind an `apn_test_<prop>` id: the one given for that app prop. */
function accountsOf(props: readonly ConfigurableProp[]): (id: string) => { app: string } | undefined {
  return (id) => {
    const prop = id.startsWith('apn_test_') ? props.find((p) => p.name === id.slice('apn_test_'.length)) : undefined;
    return prop ? { app: String(prop.app ?? '') } : undefined;
  };
}

/** Every account's fields, for masking their secrets in recorded calls. */
function flatAuth(accounts: Record<string, Record<string, unknown>>): Record<string, unknown> {
  return Object.assign({}, ...Object.values(accounts));
}

/** An error loading a component, naming its file and every problem. */
function asLoadError(file: string, err: unknown): Error {
  if (err instanceof ComponentError) {
    const lines = err.problems.map((p) => `  ${p.path ? `${p.path}: ` : ''}${p.message}`);
    return Object.assign(new Error(`${file} cannot be loaded:\n${lines.join('\n')}`), { name: 'ComponentError', problems: err.problems });
  }
  if (err instanceof Error && !err.message.includes(file)) err.message = `${file}: ${err.message}`;
  return err instanceof Error ? err : new Error(`${file}: ${String(err)}`);
}
