// Entry of a component host: a Node process of its own, started by the service under Node's
// permission model (see host-process.ts), that loads one component module and runs its code on
// request. Component code never runs in the service's process. Messages travel as JSON frames on
// file descriptor 3; everything sent from here is checked by the service, which trusts none of it.
import net from 'node:net';
import { format } from 'node:util';
import vm from 'node:vm';
import type { ComponentDescription, PropShape } from '../../contract/component-shape';
import type { ActionResult, ActionTarget, AdditionalPropsResult, EmitPayload, HostReply, HttpResponsePayload, LogLevel, OptionsResult, OptionsTarget, PropOption, SandboxContext, SerializedError, WireHostMessage } from '../../contract/host-protocol';
import { MAX_HOST_MESSAGE_BYTES } from '../../contract/limits';
import type { OutgoingCall } from '../../contract/network-api';
import { bindMethods } from '../../lib/bind-methods';
import { appInstance } from '../../props/app/app-prop';
import { HostDb } from '../../props/db/db-binding';
import { bindProp } from '../../props/prop-bindings';
import { isRecord, propShape, resolveProp } from '../../props/shared/prop-shape';
import { FrameChannel, FrameError } from '../frames';
import { componentRequire } from './component-require';
import { emitsAcked, sendEmits } from './emit-batches';
import { guardDescriptors, guardProbes } from './fs-guards';
import { connectHostCalls, hostCall, hostCallsPending, settleHostCall } from './host-calls';
import { serializeError } from './host-errors';
import { closeInheritedFds, guardProcess, startWatchdog } from './host-guards';
import { installLegacyBindings } from './legacy-bindings';
import { guardSockets } from './net-guards';
import { NetworkIntercept } from './network-intercept';
import { installProcessStarts } from './process-starts';
import { endRun, limitEmit, limitLogLine } from './run-limits';
import { sampleOf } from './sample-event';
import { runSource } from './source-run';
import { installStackMapping } from './stack-map';
import { stepRun } from './step-context';
import { TestClock } from './test-clock';
import { installTmpShim, mapTmp } from './tmp-shim';

const sandboxRequire = componentRequire(__filename);

type AnyFn = (...args: unknown[]) => unknown;
type Definition = Record<string, unknown> & {
  props?: Record<string, unknown>;
  methods?: Record<string, AnyFn>;
  hooks?: Record<string, AnyFn>;
  run?: AnyFn;
  additionalProps?: unknown;
};

/** A request the component cannot answer as asked (an unknown prop, one without options): the API's 400. */
class RequestError extends Error {
  override name = 'RequestError';
}

let current: { id: string; emits: EmitPayload[]; calls: OutgoingCall[] } | null = null;
/** Outgoing HTTP of the component, recorded (and in replay modes answered from its cassette). */
let network: NetworkIntercept | null = null;
let instance: Record<string, unknown> = {};
let context: SandboxContext | null = null;
const db = new HostDb();
let channel: FrameChannel;
/** The test's clock (`spout/testing`), when the service asked for one at load. */
let testClock: TestClock | null = null;
/** The last `additionalProps` result, live (functions and all); null until this worker computed one. */
let dynamicProps: Record<string, unknown> | null = null;

/** The component's props merged with the last `additionalProps` result (Pipedream's `previousPropDefs`). */
function allProps(def: Definition): Record<string, unknown> {
  return { ...(def.props ?? {}), ...(dynamicProps ?? {}) };
}

function post(message: HostReply): void {
  channel.send(message);
}

/** What the bundle is wrapped in, on its first line. */
const WRAPPER = '(function (module, exports, require) {';

function loadDefinition(bundle: string, filename: string): Definition {
  installStackMapping(bundle, filename, WRAPPER.length, __filename);
  const module = { exports: {} as Record<string, unknown> };
  const wrapper = vm.runInThisContext(`${WRAPPER}${bundle}\n})`, {
    filename,
  }) as (m: typeof module, e: unknown, r: typeof sandboxRequire) => void;
  wrapper(module, module.exports, sandboxRequire);
  const exported = (module.exports.default ?? module.exports) as unknown;
  if (!exported || typeof exported !== 'object') {
    throw new Error('the module must export the component object (`export default { … }` or `module.exports = { … }`)');
  }
  return exported as Definition;
}

function shapes(props: Record<string, unknown>): Record<string, PropShape> {
  const out: Record<string, PropShape> = {};
  for (const [name, prop] of Object.entries(props)) out[name] = propShape(prop);
  return out;
}

function describe(def: Definition): ComponentDescription {
  const props = shapes(def.props ?? {});
  const hooks = def.hooks && typeof def.hooks === 'object' ? def.hooks : {};
  return {
    name: def.name,
    key: def.key,
    version: def.version,
    type: def.type,
    description: def.description,
    dedupe: def.dedupe,
    props,
    hooks: Object.keys(hooks).filter((h) => typeof hooks[h] === 'function'),
    badHooks: Object.keys(hooks).filter((h) => typeof hooks[h] !== 'function'),
    methods: Object.keys(def.methods ?? {}).filter((m) => typeof def.methods?.[m] === 'function'),
    hasRun: typeof def.run === 'function',
    hasAdditionalProps: typeof def.additionalProps === 'function',
    ...sampleOf(def.sampleEmit),
  };
}

function emit(event: unknown, meta: unknown): void {
  let json: string | undefined;
  try {
    json = JSON.stringify(event === undefined ? null : event);
  } catch (err) {
    throw new TypeError(`$emit: the event is not JSON-serialisable (${(err as Error).message})`);
  }
  const payload = limitEmit(current?.id ?? null, json ?? 'null', meta);
  if (current) current.emits.push(payload);
  else post({ type: 'emits', emits: [payload] }); // emitted after its run ended (a stray timer, say)
}

function buildInstance(def: Definition, ctx: SandboxContext): Record<string, unknown> {
  const self: Record<string, unknown> = {};
  const host = { context: ctx, db: db.api(), respond, call: hostCall };
  for (const [name, raw] of Object.entries(allProps(def))) self[name] = bindProp(name, resolveProp(raw).def, host);
  bindMethods(self, def.methods ?? {});
  // Not enumerable either: registry code spreads `this` into requests (`const { app, ...data } = this`).
  Object.defineProperty(self, '$emit', { value: emit, writable: true, configurable: true, enumerable: false });
  return self;
}

/** Checks and normalises what `respond()` / `$.respond()` was given. */
function responsePayload(response: unknown): HttpResponsePayload {
  const r = (response ?? {}) as { status?: unknown; headers?: unknown; body?: unknown };
  const status = Number(r.status ?? 200);
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    throw new RangeError(`respond(): status must be an integer from 100 to 599, not ${String(r.status)}`);
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries((r.headers ?? {}) as Record<string, unknown>)) headers[k] = String(v);
  let body: HttpResponsePayload['body'] = null;
  if (typeof r.body === 'string') body = r.body;
  else if (r.body instanceof Uint8Array) body = r.body;
  else if (r.body !== undefined && r.body !== null) {
    body = JSON.stringify(r.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  }
  return { status, headers, body };
}

function respond(response: unknown): HttpResponsePayload {
  if (!current) throw new Error('respond() can be called only while run() is handling an HTTP request');
  const payload = responsePayload(response);
  const { body } = payload;
  post({ type: 'respond', invocationId: current.id, response: { ...payload, body: body instanceof Uint8Array ? { base64: Buffer.from(body).toString('base64') } : body } });
  return payload;
}

/** Runs an action step with its `$`; a `$.flow.exit` ends it without an error. */
async function runAction(def: Definition, target: ActionTarget): Promise<ActionResult> {
  const step = stepRun(target, respond, (event) => emit(event, {}));
  let outcome: { returned: unknown } | { thrown: unknown };
  try {
    outcome = { returned: await (def.run as AnyFn).call(instance, { steps: JSON.parse(target.stepsJson), $: step.$ }) };
  } catch (err) {
    outcome = { thrown: err };
  }
  return step.finish(outcome);
}

/** Sets what `this` holds; a host that has not computed the source's dynamic props does so first. */
async function configure(def: Definition, ctx: SandboxContext): Promise<void> {
  context = ctx;
  network?.setMode(ctx.network);
  instance = buildInstance(def, ctx);
  if (!ctx.dynamicProps || dynamicProps !== null) return;
  try {
    await additionalProps(def);
  } catch (err) {
    post({ type: 'log', invocationId: null, level: 'error', message: `additionalProps() failed: ${serializeError(err).stack ?? String(err)}` });
  }
}

/** Runs `additionalProps(previousPropDefs)` with `this` as in `run`, keeps its props and rebuilds `this` with them. */
async function additionalProps(def: Definition): Promise<AdditionalPropsResult> {
  if (typeof def.additionalProps !== 'function') return { props: null };
  // Registry code also edits `previousPropDefs` in place (`props.x.hidden = false`): each call
  // edits copies, so an edit lasts for that call's answer only, as the values that led to it do.
  const own = def.props ?? {};
  const given = Object.fromEntries(Object.entries(allProps(def)).map(([name, prop]) => [name, isRecord(prop) ? { ...prop } : prop]));
  const result = (await (def.additionalProps as AnyFn).call(instance, given)) ?? {};
  if (!isRecord(result)) throw new TypeError(`additionalProps() must return an object of props by name, not ${format('%o', result)}`);
  dynamicProps = result;
  if (context) instance = buildInstance(def, context);
  const before = shapes(own);
  const changed = Object.entries(shapes(Object.fromEntries(Object.keys(own).map((name) => [name, given[name]])))).filter(([name, shape]) => !(name in result) && JSON.stringify(shape) !== JSON.stringify(before[name]));
  return { props: { ...Object.fromEntries(changed), ...shapes(result) } };
}

function toOption(item: unknown, index: number): PropOption {
  // A label may be a number (`{ label: 1, value: 1 }`): shown as text.
  if (isRecord(item) && 'value' in item) return { label: item.label === undefined || item.label === null ? String(item.value) : String(item.label), value: item.value };
  if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') return { label: String(item), value: item };
  throw new TypeError(`options: item ${index} must be a value or {label, value}, not ${format('%o', item)}`);
}

/** Normalises both return forms of an `options` method: an array, or `{options, context}` for token pagination. */
function toOptionsResult(returned: unknown): OptionsResult {
  if (Array.isArray(returned)) return { options: returned.map(toOption), context: null };
  if (isRecord(returned) && Array.isArray(returned.options)) {
    return { options: returned.options.map(toOption), context: returned.context ?? null };
  }
  throw new TypeError(`options() must return an array of options or {options, context}, not ${format('%o', returned)}`);
}

/** `this` for an app's propDefinition: the component's prop of that app (with its `$auth`), else the bare app. */
function appThis(def: Definition, app: Record<string, unknown>): Record<string, unknown> {
  for (const [name, raw] of Object.entries(allProps(def))) {
    const prop = resolveProp(raw).def;
    if (prop.type === 'app' && prop.app === app.app && isRecord(instance[name])) return instance[name] as Record<string, unknown>;
  }
  return appInstance(app, {});
}

/** Runs a prop's options: its own method with `this` as in `run`, or its propDefinition's with `this` the app and `inputValues` merged into the argument. */
async function loadOptions(def: Definition, target: OptionsTarget): Promise<OptionsResult> {
  const raw = allProps(def)[target.prop];
  if (raw === undefined) throw new RequestError(`the component has no prop \`${target.prop}\``);
  const { def: prop, app } = resolveProp(raw);
  if (Array.isArray(prop.options)) return toOptionsResult(prop.options);
  if (typeof prop.options !== 'function') throw new RequestError(`prop \`${target.prop}\` has no options to load`);
  const ownOptions = isRecord(raw) && 'options' in raw;
  const args: Record<string, unknown> = { page: target.page, prevContext: target.prevContext, query: target.query };
  let self: Record<string, unknown> = instance;
  if (app && !ownOptions) {
    self = appThis(def, app);
    const inputValues = isRecord(raw) && Array.isArray(raw.propDefinition) ? (raw.propDefinition as unknown[])[2] : undefined;
    const input = typeof inputValues === 'function' ? await (inputValues as AnyFn)(context?.props ?? {}) : inputValues;
    if (isRecord(input)) Object.assign(args, input);
  }
  const returned = await (prop.options as AnyFn).call(self, args);
  // Through JSON: the values cross to the service and on to a client.
  return JSON.parse(JSON.stringify(toOptionsResult(returned))) as OptionsResult;
}

async function invoke(def: Definition, message: WireHostMessage & { type: 'invoke' }): Promise<void> {
  const { invocationId, target } = message;
  if (message.db) db.replace(message.db);
  current = { id: invocationId, emits: [], calls: [] };
  let error: SerializedError | null = null;
  let value: unknown;
  const stopClock = target.kind === 'clock' ? undefined : testClock?.drive(() => hostCallsPending() || (network?.liveCallsPending() ?? false));
  try {
    if (target.kind === 'run') await runSource(def.run, instance, target.event, emit);
    else if (target.kind === 'hook') {
      const hook = def.hooks?.[target.name];
      // The service records only hooks that exist.
      value = typeof hook === 'function';
      if (typeof hook === 'function') await hook.call(instance);
    } else if (target.kind === 'options') value = await loadOptions(def, target);
    else if (target.kind === 'action') value = await runAction(def, target);
    else if (target.kind === 'clock') await testClock?.advanceTo(target.nowMs);
    else value = await additionalProps(def);
  } catch (err) {
    error = serializeError(err);
  }
  await network?.settle(invocationId);
  stopClock?.();
  const { emits, calls } = current;
  current = null;
  endRun(invocationId);
  // What a run stored is kept even when it then threw, as on the platform. Its emits go first, in batches the service stores as they come.
  const last = await sendEmits(invocationId, emits, post);
  const done: HostReply = { type: 'done', invocationId, error, emits: last, value, dbWrites: db.takeWrites(), calls, ...(testClock ? { clockMs: testClock.now() } : {}) };
  try {
    post(done);
  } catch (err) {
    if (!(err instanceof FrameError)) throw err;
    const message = `the run's result (its recorded calls, return value and this.db changes) is too large to pass on: ${err.message} (docs/security.md); nothing it set was kept (its emits were)`;
    post({ ...done, error: { name: 'RangeError', message }, value: undefined, dbWrites: [], calls: [] });
  }
}

function captureConsole(): void {
  const levels: LogLevel[] = ['log', 'info', 'warn', 'error', 'debug'];
  for (const level of levels) {
    console[level] = (...args: unknown[]) => {
      const invocationId = current?.id ?? null;
      const message = limitLogLine(invocationId, format(...args));
      if (message !== null) post({ type: 'log', invocationId, level, message });
    };
  }
  process.on('unhandledRejection', (reason) => {
    post({ type: 'log', invocationId: current?.id ?? null, level: 'error', message: `Unhandled rejection: ${serializeError(reason).stack ?? String(reason)}` });
  });
  // A throw nobody catches (in a timer, say) ends the host, as it would end a Node process; the
  // service is told why first, then restarts the host.
  process.on('uncaughtException', (err) => {
    channel.sendNow({ type: 'fatal', error: serializeError(err) } satisfies HostReply, () => process.exit(70));
  });
}

/** Handles the service's messages: a load, then configurations and invocations strictly in order, one at a time. */
function serve(): void {
  let def: Definition | null = null;
  let loading = false;
  // A `configure` sent after an invocation applies only to the ones after it.
  const queue: Array<Exclude<WireHostMessage, { type: 'call-result' | 'emits-ack' | 'load' }>> = [];
  let busy = false;
  const drain = async (loaded: Definition) => {
    busy = true;
    for (let message = queue.shift(); message; message = queue.shift()) {
      if (message.type === 'configure') await configure(loaded, message.context);
      else await invoke(loaded, message);
    }
    busy = false;
  };
  const receive = (message: WireHostMessage) => {
    // An invocation waits on its call's answer: answers cannot queue behind it.
    if (message.type === 'call-result') return settleHostCall(message.callId, message.value, message.error);
    if (message.type === 'emits-ack') return emitsAcked(message.invocationId);
    if (message.type === 'load') {
      if (def || loading) return;
      loading = true;
      // The service sends nothing else until the host says it loaded.
      void (async () => {
        try {
          if (message.tmp) mapTmp(message.tmp.dir, message.tmp.real, message.tmp.moved);
          if (message.clock) {
            testClock = new TestClock(message.clock.nowMs);
            testClock.install();
          }
          await sandboxRequire.preload(message.bundle);
          def = loadDefinition(message.bundle, message.filename);
          post({ type: 'loaded', description: describe(def) });
        } catch (err) {
          post({ type: 'load-failed', error: serializeError(err) });
        }
      })();
      return;
    }
    if (!def) return;
    queue.push(message);
    if (!busy) void drain(def);
  };
  const socket = new net.Socket({ fd: 3, readable: true, writable: true });
  channel = new FrameChannel(socket, {
    // The service's messages carry bundles, which can be large; it is the trusted side.
    maxFrameBytes: 1 << 30,
    maxSendBytes: MAX_HOST_MESSAGE_BYTES,
    onMessage: (message) => receive(message as WireHostMessage),
    onError: () => process.exit(71),
  });
  // The service is gone (or dropped this host): nothing is left to do.
  socket.on('close', () => process.exit(0));
  socket.on('error', () => process.exit(0));
  connectHostCalls((callId, request) => post({ type: 'call', callId, request }));
  network = new NetworkIntercept({
    current: () => current?.id ?? null,
    onCall: (invocationId, call) => {
      if (current?.id === invocationId) current.calls.push(call);
    },
    onRefused: (invocationId, message) => post({ type: 'unrecorded', invocationId, message }),
    onUnanswered: (invocationId, message) => post({ type: 'log', invocationId, level: 'warn', message }),
  });
  captureConsole();
}

// The walls go up before any component code can run: the channel and the watchdog first, as the
// walls keep component code off their descriptors and threads. The /tmp mapping comes before the
// walls, which wrap what it wraps (and fix it in place).
closeInheritedFds();
startWatchdog();
installTmpShim();
installLegacyBindings();
installProcessStarts();
serve();
guardProcess();
guardProbes();
guardDescriptors();
guardSockets();
