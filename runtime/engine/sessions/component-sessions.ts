// Component code run outside deployed sources: prop configuration (async options,
// additionalProps) and action test runs, in a warm sandbox per component, so a form that loads
// options page after page, or reloads props as the user types, does not start a worker each time,
// and `previousPropDefs` holds the previous result.

import type { ActionRunView, ConsoleLine } from '../../contract/action-api';
import type { OptionsAnswer } from '../../contract/component-api';
import type { ConfigurableProp } from '../../contract/component-shape';
import type { ActionResult, HttpResponsePayload, OptionsResult } from '../../contract/host-protocol';
import type { InvocationVia, WorkflowStepOf } from '../../contract/invocation-api';
import type { NetworkMode, OutgoingCall } from '../../contract/network-api';
import { ComponentError, ConfigurationRequestError } from '../../lib/error-kinds';
import { newId } from '../../lib/ids';
import { checkConfiguredProps, readConfigured } from '../../props/configured-props';
import { dirGrants } from '../../props/dir/dir-folders';
import { NO_GRANTS } from '../../sandbox/host-grants';
import { Sandbox } from '../../sandbox/sandbox';
import type { SandboxLog } from '../../sandbox/sandbox-options';
import { emptyTempFolder, makeTempFolder, removeTempFolder, type TempFolder } from '../../sandbox/temp-folder';
import { runDataStoreOp } from '../../store/data-store-ops';
import type { DataStores } from '../../store/data-stores';
import type { InvocationStore } from '../../store/invocation-store';
import type { ComponentRecord, Metadata } from '../../store/metadata';
import type { SecretBox } from '../../store/secrets';
import { baseRecord, errorOf, statusOf } from '../invocations/invocation-record';
import type { Masker } from '../network/masker';
import { maskerFor, type NetworkService } from '../network/network-service';
import { additionalPropsOf, mergeProps } from '../sources/dynamic-props';
import { sandboxContext } from '../sources/sandbox-context';
import type { SandboxLimits } from '../sources/source-hosts';
import type { SendLog } from './send-log';

export type { OptionsAnswer };

export interface OptionsRequest {
  prop: string;
  configured: Record<string, unknown>;
  page: number;
  prevContext: Record<string, unknown>;
  query?: string;
}

/**
 * How a call's outgoing HTTP is served: the network mode, and whose cassette answers and records
 * (the component's own, or a deployed source's when its form is configured). Default: live.
 */
export interface NetworkUse {
  mode: NetworkMode;
  owner?: string;
}

interface Session {
  sandbox: Sandbox;
  /** Lines not yet handed to a call. */
  logs: SandboxLog[];
  /** The last additionalProps result, for app-prop lookups of dynamic props. */
  dynamic: ConfigurableProp[];
  /** Calls run one after another: each configures `this` before it runs. */
  queue: Promise<unknown>;
  idle: NodeJS.Timeout | null;
  /** Masks the credentials of the values it was last configured with, in recorded calls. */
  masker: Masker;
  /** Whose cassette answers its calls in a replay mode (the component's, or the source's it configures). */
  owner: string;
  /** Its host's temp folder (`/tmp` to its code, in the component's own folder): emptied after each action run, removed with the session. */
  temp: TempFolder;
}

/** How an action is run; see `runAction`. */
export interface RunActionOptions {
  jit: boolean;
  onRespond?: (response: HttpResponsePayload) => void;
  network?: NetworkMode;
  via?: InvocationVia;
  workflowStep?: WorkflowStepOf;
  /** Receives its exports and return value unmasked (a workflow hands them to its next steps), and the masker its record was masked with. */
  onOutputs?: (outputs: { exports: Record<string, unknown>; ret: unknown }, masker: Masker) => void;
  /** Maskers of other credentials its outputs may hold (a workflow's earlier steps'). */
  maskAlso?: Masker[];
  /** `steps` as its record shows them (a workflow's, masked with each earlier step's credentials); else `steps` masked with its own. */
  shownSteps?: Record<string, unknown>;
}

/** Log lines kept for a session between calls; a chatty component cannot grow this without bound. */
const MAX_LOGS = 200;

export interface ComponentSessionsDeps {
  metadata: Metadata;
  secrets: SecretBox;
  limits: SandboxLimits;
  /** A session's worker stops after this long unused. */
  idleMs: number;
  dataStores: DataStores;
  sendLog: SendLog;
  /** Where action runs are recorded. */
  invocations: InvocationStore;
  /** Outgoing calls of action runs: their cassettes and replay. */
  network: NetworkService;
  /** The data dir (`dir` props get folders under it). */
  dataDir: string;
}

/** Runs components' `options` and `additionalProps` for configuration forms (POST /v1/components/configure and /props). */
export class ComponentSessions {
  private readonly sessions = new Map<string, Promise<Session>>();
  /** Sessions being closed, by component: the next one starts once its temp folder is gone, so that removal cannot empty the new one's. */
  private readonly closing = new Map<string, Promise<void>>();

  constructor(private readonly deps: ComponentSessionsDeps) {}

  /** Loads one page of a prop's options with `this` holding the given values. */
  options(component: ComponentRecord, request: OptionsRequest, network: NetworkUse = { mode: 'live' }): Promise<OptionsAnswer> {
    return this.call(component, request.configured, network, async (session) => {
      // Its error is masked (a failed call's message may quote a URL with `?api_key=`), and so are its
      // options; its context is not: the component reads it back for the next page.
      const result = session.masker.result(await session.sandbox.invoke({ kind: 'options', prop: request.prop, page: request.page, prevContext: request.prevContext, query: request.query }));
      this.keepCalls(session, network.mode, result.calls);
      const logs = takeLogs(session);
      if (!result.error) {
        const { options, context } = result.value as OptionsResult;
        return { options: session.masker.value(options), context, errors: [], logs };
      }
      if (result.error.name === 'RequestError') throw new ConfigurationRequestError(`${component.id}: ${result.error.message}`);
      return { options: [], context: null, errors: [result.error.message], logs };
    });
  }

  /** Runs `additionalProps` with `this` holding the given values; answers the merged prop set. */
  props(component: ComponentRecord, configured: Record<string, unknown>, network: NetworkUse = { mode: 'live' }): Promise<{ configurable_props: ConfigurableProp[]; logs: ConsoleLine[] }> {
    return this.call(component, configured, network, async (session) => {
      const dynamic = await additionalPropsOf(session.sandbox, component.type, (calls) => this.keepCalls(session, network.mode, calls));
      session.dynamic = dynamic ?? [];
      return { configurable_props: mergeProps(component.configurable_props, session.dynamic), logs: takeLogs(session) };
    });
  }

  /** Stops every session's worker. */
  async stop(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(
      sessions.map((s) =>
        s.then(
          (session) => this.close(session),
          () => undefined,
        ),
      ),
    );
  }

  /**
   * Runs an action once (by hand, `$.context.JIT` true, or as a workflow step): its props (with what
   * `additionalProps` adds) are checked first, and its `$.send`s are carried out after it ends.
   */
  runAction(component: ComponentRecord, configured: Record<string, unknown>, steps: Record<string, unknown>, options: RunActionOptions = { jit: true }): Promise<ActionRunView> {
    if (component.type !== 'action') {
      throw new ComponentError([{ path: 'id', message: `${component.id} is a source; sources are deployed (POST /v1/sources), actions are run` }]);
    }
    const network = options.network ?? 'live';
    // Its additionalProps run under the run's network mode too: a replay makes no live call.
    return this.call(component, configured, { mode: network }, async (session) => {
      const dynamic = (await additionalPropsOf(session.sandbox, component.type, (calls) => this.keepCalls(session, network, calls))) ?? [];
      const props = mergeProps(component.configurable_props, dynamic);
      const { values, problems } = checkConfiguredProps(
        props,
        configured,
        (id) => this.deps.metadata.data.accounts.find((a) => a.id === id),
        (id) => this.deps.dataStores.exists(id),
      );
      if (problems.length > 0) throw new ComponentError(problems);
      this.configure(session, component, values, { mode: network }, dynamic);
      const runId = newId('run');
      const started = Date.now();
      const target = { kind: 'action', stepsJson: JSON.stringify(steps), jit: options.jit, deadlineMs: started + this.deps.limits.timeoutMs, runId } as const;
      // Its error is masked as its calls are: a thrown message may quote the account's key.
      const masker = session.masker.with(options.maskAlso ?? []);
      const result = masker.result(await session.sandbox.invoke(target, options.onRespond).finally(() => emptyTempFolder(session.temp.path)));
      const clear = result.error ? null : (result.value as ActionResult);
      if (clear) options.onOutputs?.({ exports: clear.exports, ret: clear.ret }, masker);
      // What it returned, exported and sent is shown and recorded masked, as its logs are; the
      // sends themselves and `$.respond` (onRespond) carry the values as the component wrote them.
      const outcome = clear && masker.value({ ...clear, sends: [] });
      const sends = clear ? await this.deps.sendLog.perform(runId, clear.sends, (record) => masker.value(record)) : [];
      const os = takeLogs(session).map((line) => ({ ...line, message: masker.text(line.message) }));
      const record = baseRecord(result.invocationId, component.id, 'action', started);
      Object.assign(record, {
        status: statusOf(result),
        error: errorOf(result),
        event: options.shownSteps ?? masker.value(steps),
        logs: os.map((line) => ({ ts: started, ...line })),
        result: outcome ? { exports: outcome.exports, ret: outcome.ret, exit: outcome.exit } : null,
        calls: this.deps.network.record(component.id, network, masker, result.calls),
        via: options.via ?? null,
        workflow_step: options.workflowStep ?? null,
      });
      // Recorded before the answer, so a client can read the record by the id it gets.
      await this.deps.invocations.add(record).catch((err: Error) => console.error(`recording ${record.id}: ${err.message}`));
      return {
        id: runId,
        invocation_id: record.id,
        exports: outcome?.exports ?? {},
        os,
        ret: outcome?.ret ?? null,
        error: result.error ? { name: result.error.name, message: result.error.message, stack: result.error.stack ?? null } : null,
        exit: outcome?.exit ?? null,
        response: outcome?.response ? masker.value({ ...outcome.response, body: responseText(outcome.response.body) }) : null,
        emitted: result.emits.map((e) => JSON.parse(e.json) as unknown),
        sends,
      };
    });
  }

  private configure(session: Session, component: ComponentRecord, values: Record<string, unknown>, network: NetworkUse, dynamic = session.dynamic): void {
    const props = mergeProps(component.configurable_props, dynamic);
    const context = sandboxContext({ sourceId: component.id, props, values, endpoints: {}, dynamicProps: false, network: network.mode, dataDir: this.deps.dataDir }, this.deps.metadata.data.accounts, this.deps.secrets);
    session.sandbox.configure(context);
    session.masker = maskerFor(
      context.auth,
      props.filter((p) => p.secret).map((p) => values[p.name]),
    );
    session.owner = network.owner ?? component.id;
  }

  /** Calls made outside an action run (options, additionalProps) are recorded nowhere but, in record mode, in the cassette. */
  private keepCalls(session: Session, mode: NetworkMode, calls: readonly OutgoingCall[]): void {
    if (mode === 'record') this.deps.network.record(session.owner, mode, session.masker, calls);
  }

  private async call<T>(component: ComponentRecord, configured: Record<string, unknown>, network: NetworkUse, work: (session: Session) => Promise<T>): Promise<T> {
    const session = await this.session(component);
    const run = session.queue.then(async () => {
      // Unchecked (options and additionalProps run with what the form holds so far), but read as the component reads them.
      this.configure(session, component, readConfigured(mergeProps(component.configurable_props, session.dynamic), configured), network);
      // What it threw is masked with the credentials it ran with (an options() or additionalProps() error may quote a key).
      return await work(session).catch((err: unknown) => Promise.reject(session.masker.thrown(err)));
    });
    session.queue = run.catch(() => undefined);
    try {
      return await run;
    } finally {
      this.keepWarm(component.id, session);
    }
  }

  private session(component: ComponentRecord): Promise<Session> {
    let session = this.sessions.get(component.id);
    if (!session) {
      session = this.start(component);
      this.sessions.set(component.id, session);
      session.catch(() => this.sessions.delete(component.id));
    }
    return session;
  }

  private async start(component: ComponentRecord): Promise<Session> {
    await this.closing.get(component.id);
    const temp = makeTempFolder(this.deps.dataDir, component.id);
    const session: Omit<Session, 'sandbox'> = { logs: [], dynamic: [], queue: Promise.resolve(), idle: null, masker: maskerFor({}, []), owner: component.id, temp };
    const loading = Sandbox.load({
      bundle: component.bundle,
      filename: component.filename,
      ...this.deps.limits,
      // An action's `dir` props write under its own folder (DATA_DIR/dirs/<component id>).
      grants: dirGrants(NO_GRANTS, this.deps.dataDir, component.id),
      temp,
      label: `component ${component.id} (${component.name})`,
      // Masked with the credentials of the call it is part of, as its calls are (a `debug: true` request prints its key).
      onLog: (log) => {
        session.logs.push({ ...log, message: session.masker.text(log.message) });
        if (session.logs.length > MAX_LOGS) session.logs.shift();
      },
      // Options methods may read a data store the form already chose.
      onDataStore: (storeId, call) => runDataStoreOp(this.deps.dataStores, storeId, call),
      // An action's test runs may replay its calls from the action's own cassette.
      onNetworkMatch: (request) => this.deps.network.match(session.owner, session.masker, request),
      // Emits while configuring go nowhere: no source exists yet.
      onStrayEmits: () => {},
    });
    const { sandbox } = await loading.catch(async (err: unknown) => {
      await removeTempFolder(temp);
      throw err;
    });
    return Object.assign(session, { sandbox });
  }

  /** Restarts the session's idle clock; an unused session's worker is stopped. */
  private keepWarm(componentId: string, session: Session): void {
    if (session.idle) clearTimeout(session.idle);
    session.idle = setTimeout(() => {
      this.sessions.delete(componentId);
      const closed = this.close(session).catch(() => undefined);
      this.closing.set(componentId, closed);
      void closed.finally(() => {
        if (this.closing.get(componentId) === closed) this.closing.delete(componentId);
      });
    }, this.deps.idleMs);
    session.idle.unref();
  }

  private async close(session: Session): Promise<void> {
    if (session.idle) clearTimeout(session.idle);
    await session.sandbox.close();
    await removeTempFolder(session.temp);
  }
}

/** The lines written since the last call took them: calls of a session run one at a time, so they are this call's. */
function takeLogs(session: Session): ConsoleLine[] {
  const taken = session.logs.map((log) => ({ level: log.level, message: log.message }));
  session.logs = [];
  return taken;
}

function responseText(body: string | Uint8Array | null): string | null {
  return body === null || typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
}
