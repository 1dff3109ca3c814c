// The compat harness's run mode (`npm run compat -- DIR --run`): each sampled component is loaded,
// then deployed (a source, then run once: by its timer's event, or by a request to its endpoint)
// or run (an action) by key, with placeholder props and a placeholder connected account, in
// network mode `replay` with an empty cassette. A run that gets as far as its first HTTP call stops
// there ("no recording of …"): proof that the component's code, its app's methods and its props
// worked up to that point. Each outcome is classified (outcomes.ts has the rules).
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { bundleFile } from '../runtime/components/bundle-file';
import { guessKey } from '../runtime/components/registry-scan';
import { ComponentError } from '../runtime/lib/error-kinds';
import type { SpoutProcess } from '../test/helpers/service';
import { classifyError, classifyLoad, type Outcome, type Trigger } from './compat-outcomes';

type Prop = Record<string, unknown> & { name: string; type: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `$auth` fields registry apps read most (counted over the registry): every account has them. */
const PLACEHOLDER_FIELDS = [
  'api_key',
  'oauth_access_token',
  'api_token',
  'access_token',
  'token',
  'domain',
  'subdomain',
  'username',
  'password',
  'api_secret',
  'secret_key',
  'region',
  'oauth_uid',
  'url',
  'email',
  'base_api_uri',
  'organization_id',
  'environment',
  'client_id',
  'access_key',
  'workspace_id',
  'secret',
  'base_url',
  'api_domain',
  'account_id',
  'user_id',
  'project_id',
  'personal_access_token',
  'base_api_url',
  'app_id',
  'api_url',
  'oauth_client_id',
  'auth_token',
  'page_id',
  'key',
  'endpoint',
  'account_name',
  'company_id',
  'apikey',
  'api_access_token',
  'account',
  'instance_name',
  'hostname',
  'host',
  'team_id',
  'site_id',
  'server',
  'private_key',
  'client_secret',
  'instance_url',
];

const ISO_DATE = '2024-01-02T03:04:05Z';

/** A private key in PEM (PKCS #8), for apps whose SDK parses the one in `$auth` before it calls anything. */
const PEM_KEY = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** A service account key in the shape Google Cloud's console downloads (its key a real PEM). */
const SERVICE_ACCOUNT_KEY = JSON.stringify({ type: 'service_account', project_id: 'placeholder-project', private_key_id: '1', private_key: PEM_KEY, client_email: 'placeholder@placeholder-project.iam.gserviceaccount.com', client_id: '1' });

/**
 * A placeholder for a `$auth` field the component reads, by its name: a secret gets a token, an
 * id `1`, an email an address; anything else (a domain, region, environment, subdomain) a URL,
 * since apps differ in how they build one from it and a URL still parses inside another
 * (`https://${domain}.app.com` → host `https`): the call gets as far as the cassette.
 */
function authValue(field: string): string {
  const name = field.toLowerCase();
  if (/private_?key/.test(name)) return PEM_KEY;
  if (/json/.test(name)) return SERVICE_ACCOUNT_KEY;
  if (/sid$/.test(name)) return `AC${'0'.repeat(32)}`;
  if (/token|secret|pass|pwd|key|credential|signature|session|cookie|jwt|bearer/.test(name)) return `placeholder-${name.replace(/[^a-z0-9]+/g, '-')}`;
  if (/email/.test(name)) return 'user@example.com';
  // Names go into URLs and connection strings (`user:pass@host`): a plain word, and a bare host name (of three labels: an SRV name needs them).
  if (/user(_?name)?$|login/.test(name)) return 'placeholder-user';
  if (/host(_?name)?$/.test(name)) return 'db.example.com';
  // `account_id`, and ids written as one word (`locationid`, which pCloud's actions check is "1" or "2").
  if (/id$|number$/.test(name)) return '1';
  // A region is a hostname component wherever it goes (SDKs check it).
  if (/region/.test(name)) return 'us-east-1';
  return 'https://example.com';
}

/**
 * The values the code compares a `$auth` field with (`this.$auth.plan === "pro"`, `"eu" ==
 * this.app.$auth.region`): its own check of the account, which a placeholder should pass.
 */
function comparedValues(code: string): Map<string, string> {
  const out = new Map<string, string>();
  const field = String.raw`\$auth(?:\.([A-Za-z_$][\w$]*)|\[["'\`]([^"'\`]+)["'\`]\])`;
  const literal = String.raw`["'\`]([^"'\`$]*)["'\`]`;
  for (const m of code.matchAll(new RegExp(`${field}\\s*[!=]==?\\s*${literal}|${literal}\\s*[!=]==?\\s*(?:[\\w$]+\\.)*${field}`, 'g'))) {
    const name = m[1] ?? m[2] ?? m[5] ?? m[6];
    const value = m[3] ?? m[4];
    if (name && value !== undefined && !out.has(name)) out.set(name, value);
  }
  return out;
}

/** Placeholder credentials: the common fields, and every `$auth` field the component's code reads. */
function placeholderAuth(code: string): Record<string, string> {
  const credentials: Record<string, string> = Object.fromEntries(comparedValues(code));
  for (const field of PLACEHOLDER_FIELDS) credentials[field] ??= authValue(field);
  for (const [, dotted, quoted] of code.matchAll(/\$auth(?:\.([A-Za-z_$][\w$]*)|\[["'`]([^"'`]+)["'`]\])/g)) {
    const field = (dotted ?? quoted) as string;
    credentials[field] ??= authValue(field);
  }
  // `const { hostname, api_key: key = "" } = this.$auth`
  for (const [, names] of code.matchAll(/\{([^{}]*)\}\s*=\s*(?:[\w$]+\.)*\$auth\b/g)) {
    for (const part of (names as string).split(',')) {
      const field = /^\s*(?:\.\.\.)?([A-Za-z_$][\w$]*)/.exec(part)?.[1];
      if (field && !part.trim().startsWith('...')) credentials[field] ??= authValue(field);
    }
  }
  return credentials;
}

/** A placeholder value for a prop, from its options, type and name (an email for `email`, a URL for `url`…). */
export function placeholder(prop: Prop): unknown {
  const type = prop.type;
  const options = Array.isArray(prop.options) ? prop.options : [];
  const first = options[0];
  const optionValue = first && typeof first === 'object' && 'value' in (first as object) ? (first as { value: unknown }).value : first;
  const name = `${prop.name} ${String(prop.label ?? '')}`.toLowerCase();
  const description = String(prop.description ?? '').toLowerCase();
  const text = (): string => {
    if (optionValue !== undefined && typeof optionValue !== 'object') return String(optionValue);
    if (/e-?mail/.test(name)) return 'user@example.com';
    if (/url|link/.test(name)) return 'https://example.com/placeholder.pdf';
    // A file prop takes a path in /tmp on Pipedream (a file the harness puts there), or a URL; one
    // described as the name of a file in /tmp, that file's name.
    if (/\/tmp/.test(description) && /\bname\b/.test(name)) return 'placeholder.pdf';
    if (/file|path|attachment|image|document|audio|video|photo/.test(name) || /\/tmp/.test(description)) return '/tmp/placeholder.pdf';
    if (/xml/.test(name)) return '<root/>';
    // A Google Cloud service account key, as its console downloads it.
    if (/service.?account|key.?json/.test(name)) return SERVICE_ACCOUNT_KEY;
    // What a user types where the description asks for JSON objects.
    if (/\bjson\b|\bobjects?\b|\{\s*\\?"/.test(description)) return '{}';
    if (/url|link|website|webhook|endpoint/.test(name)) return 'https://example.com/placeholder';
    if (/date|time|since|until|after|before|deadline|_at\b/.test(name)) return ISO_DATE;
    if (/phone|mobile|number/.test(name)) return '+15555550100';
    // A quantity typed as text (`numSeconds`, "Max Results"): code does arithmetic with it.
    if (/seconds|minutes|hours|days|(?<!ac)count|amount|quantity|limit|size|\bnum|\bmax|\bmin\b|offset/.test(name)) return '1';
    if (/json|payload|body|data|metadata|attributes|fields/.test(name)) return '{}';
    if (/\bid\b|_id|ids\b|\bid\s/.test(name)) return '1';
    return 'placeholder';
  };
  switch (type) {
    case 'string':
      return text();
    case 'string[]':
      return [text()];
    case 'integer':
      return typeof optionValue === 'number' ? optionValue : typeof prop.min === 'number' ? prop.min : 1;
    case 'integer[]':
      return [typeof optionValue === 'number' ? optionValue : 1];
    case 'boolean':
      return false;
    case 'boolean[]':
      return [false];
    case 'object':
      return {};
    case 'any':
      return text();
    case 'http_request':
      return { method: 'GET', url: 'https://example.com/placeholder' };
    case 'sql':
      return { query: 'SELECT 1', params: [] };
    // A schedule the user picks, for a timer without a default.
    case '$.interface.timer':
      return { intervalSeconds: 900 };
    default:
      // App-specific types ($.discord.channel…) take an id as given.
      return type.startsWith('$.') && !type.startsWith('$.interface') && !type.startsWith('$.service') ? '1' : undefined;
  }
}

/**
 * The values a user would give: every required user-input prop without a value gets a placeholder
 * (with `optional`, the optional ones too); app props get a placeholder account.
 */
async function fillProps(spout: SpoutProcess, props: Prop[], configured: Record<string, unknown>, code: string, dataStore: () => Promise<string>, optional = false): Promise<Record<string, unknown>> {
  const out = { ...configured };
  for (const prop of props) {
    if (prop.name in out) continue;
    if (prop.type === 'app' && typeof prop.app === 'string') {
      const created = await call(spout, 'POST', '/v1/accounts', { app: prop.app, name: `${prop.app} placeholder`, credentials: placeholderAuth(code) });
      if (created.status === 200) out[prop.name] = { authProvisionId: created.json.data.id as string };
      continue;
    }
    if (prop.type === 'data_store') {
      out[prop.name] = { dataStore: await dataStore() };
      continue;
    }
    // An http_request prop's default is the form's start (`{ method: "POST" }`): the user adds the URL.
    if (prop.type === 'http_request' && isRecord(prop.default) && !prop.default.url && prop.disabled !== true) {
      out[prop.name] = { ...prop.default, ...(placeholder(prop) as object), method: prop.default.method ?? 'GET' };
      continue;
    }
    if ((prop.optional === true && !optional) || prop.default !== undefined || prop.disabled === true || prop.hidden === true) continue;
    const value = placeholder(prop);
    if (value !== undefined) out[prop.name] = value;
  }
  return out;
}

/**
 * A call to the harness's service, tried again once when the connection broke before an answer
 * (a kept-alive connection the server closed as it was reused: undici's `fetch failed`).
 */
async function call(spout: SpoutProcess, method: string, route: string, body?: unknown): ReturnType<SpoutProcess['api']> {
  try {
    return await spout.api(method, route, body);
  } catch (err) {
    if (!(err instanceof TypeError) || err.message !== 'fetch failed') throw err;
    await new Promise((resolve) => setTimeout(resolve, 250));
    return spout.api(method, route, body);
  }
}

/** A 400's problems as one line. */
function problemText(json: { errors?: Array<{ path: string; message: string }>; detail?: string } | null): string {
  const errors = json?.errors ?? [];
  return errors.length ? errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join(' | ') : String(json?.detail ?? 'no detail');
}

export interface RunTarget {
  file: string;
  rel: string;
  kind: 'source' | 'action';
}

export interface RunContext {
  spout: SpoutProcess;
  dir: string;
  dataStore: () => Promise<string>;
}

type Verdict = Omit<Outcome, 'rel' | 'kind'>;

/** The file a placeholder file prop names (`/tmp/placeholder.pdf`), put in a run's /tmp first, as a workflow's earlier step would. */
const PLACEHOLDER_FILE = Buffer.from('%PDF-1.4\n% placeholder of the compat harness\n%%EOF\n');

/** Puts the placeholder file in every temp folder there is now (the harness's own service: its hosts' /tmp). */
async function seedTempFolders(dataDir: string): Promise<void> {
  const root = path.join(dataDir, 'dirs');
  const owners = fs.existsSync(root) ? fs.readdirSync(root) : [];
  // Another component's folder may go (its source deleted) as this one is written.
  await Promise.all(owners.map((owner) => fs.promises.writeFile(path.join(root, owner, '.tmp', 'placeholder.pdf'), PLACEHOLDER_FILE).catch(() => undefined)));
}

const succeeded = (v: Verdict) => v.result === 'completed' || v.result === 'reached-http';

/** Loads one component file, then deploys and runs it (a source) or runs it (an action), and says how it ended. */
export async function runOne(ctx: RunContext, target: RunTarget): Promise<Outcome> {
  const base = { rel: target.rel, kind: target.kind };
  let code: string;
  let filename: string;
  try {
    const bundled = await bundleFile(target.file, { trees: [ctx.dir] });
    code = bundled.code;
    filename = bundled.filename;
  } catch (err) {
    const message = err instanceof ComponentError ? err.problems.map((p) => `${p.path}: ${p.message}`).join(' | ') : (err as Error).message;
    return { ...base, stage: 'load', ...classifyLoad('bundle', message) };
  }
  const saved = await call(ctx.spout, 'POST', '/v1/components', { component_code: code, component_filename: filename });
  if (saved.status !== 200) return { ...base, stage: 'load', ...classifyLoad('service', problemText(saved.json)) };
  const component = saved.json.data as Component;
  const codeText = fs.readFileSync(target.file, 'utf8') + code;
  const first = await attempt(ctx, component, target.file, codeText, false);
  // Components that need one of several optional props (checked by their own code) get them all, as a user would give one.
  if (succeeded(first) || first.result === 'registry-bug' || !component.configurable_props.some((p) => p.optional === true)) return { ...base, ...first };
  const second = await attempt(ctx, component, target.file, codeText, true);
  return succeeded(second) ? { ...base, ...second } : { ...base, ...first, second: `${second.result}${second.why ? `: ${second.why}` : ''}: ${second.message ?? ''}` };
}

interface Component {
  id: string;
  key: string | null;
  type: 'source' | 'action';
  configurable_props: Prop[];
}

/** One try with placeholder props (required ones, or all): props that additionalProps adds get theirs too. */
async function attempt(ctx: RunContext, component: Component, file: string, codeText: string, optional: boolean): Promise<Verdict> {
  const { spout } = ctx;
  // By key, as a user deploys a registry component, when the key is written in the file (a
  // computed one would make the registry describe every file to find it).
  const ref = component.key && guessKey(file) === component.key ? component.key : component.id;
  let props = component.configurable_props;
  let configured = await fillProps(spout, props, {}, codeText, ctx.dataStore, optional);
  for (let round = 0; ; round++) {
    const tried = component.type === 'action' ? await runAction(spout, ref, configured) : await deploySource(spout, ref, configured, props);
    if (tried.kind === 'done') return { stage: tried.stage, ...classifyError(tried.error, codeText, tried.trigger) };
    const missing = /configured_props\.[\w$-]+: .*(is required|no default schedule)/.test(tried.message);
    if (!missing || round >= 4) return { stage: tried.stage, ...classifyError({ name: 'Error', message: tried.message }, codeText) };
    // Props added by additionalProps need values too: learn them (in replay mode), fill them, try again.
    const more = await call(spout, 'POST', '/v1/components/props', { id: component.id, configured_props: configured, network_mode: 'replay' });
    if (more.status !== 200) return { stage: 'props', ...classifyError({ name: 'Error', message: problemText(more.json) }, codeText) };
    props = more.json.data.configurable_props as Prop[];
    const next = await fillProps(spout, props, configured, codeText, ctx.dataStore, optional);
    if (Object.keys(next).length === Object.keys(configured).length) return { stage: 'props', ...classifyError({ name: 'Error', message: tried.message }, codeText) };
    configured = next;
  }
}

type RunError = { name: string; message: string; stack?: string | null };
type Attempt = { kind: 'done'; stage: Outcome['stage']; error: RunError | null; trigger?: Trigger } | { kind: 'refused'; stage: Outcome['stage']; message: string };

/** How a recorded run ended: its error, or, when it got as far as a call with no recording (an SDK retrying it until the timeout, say), that call's. */
async function recordedEnd(spout: SpoutProcess, invocationId: string, fallback: RunError | null): Promise<RunError | null> {
  const record = (await call(spout, 'GET', `/v1/invocations/${invocationId}`)).json?.data as { error: RunError | null; calls?: Array<{ error: string | null }> } | undefined;
  const miss = record?.calls?.find((c) => c.error && /no recording of /.test(c.error));
  if (miss) return { name: 'Error', message: miss.error as string };
  return record?.error ?? fallback;
}

async function runAction(spout: SpoutProcess, ref: string, configured: Record<string, unknown>): Promise<Attempt> {
  // Its session (and /tmp) exists once its form was computed; the placeholder file goes in before the run.
  await call(spout, 'POST', '/v1/components/props', { id: ref, configured_props: configured, network_mode: 'replay' });
  await seedTempFolders(spout.dataDir);
  const run = await call(spout, 'POST', '/v1/actions/run', { id: ref, configured_props: configured, network_mode: 'replay' });
  if (run.status !== 200) return { kind: 'refused', stage: 'run', message: problemText(run.json) };
  return { kind: 'done', stage: 'run', error: run.json.error ? await recordedEnd(spout, run.json.invocation_id, run.json.error) : null };
}

/**
 * Deploys a source inactive, then activates it (its deploy() and activate() hooks run, and their
 * records stay when they fail), then runs it once: by a JSON request to its endpoint when it has
 * an HTTP interface and no timer, else by run-now (its timer's event). A source that only runs on
 * another app's events (`$.interface.apphook`), which never happen offline, ends once activated.
 */
async function deploySource(spout: SpoutProcess, ref: string, configured: Record<string, unknown>, props: Prop[]): Promise<Attempt> {
  const deployed = await call(spout, 'POST', '/v1/sources', { [ref.startsWith('sc_') ? 'component_id' : 'component_key']: ref, configured_props: configured, network_mode: 'replay', timeout_seconds: 30, active: false });
  if (deployed.status !== 200) return { kind: 'refused', stage: 'deploy', message: problemText(deployed.json) };
  const source = deployed.json.data as { id: string; configured_props: Record<string, { endpoint_url?: string }> };
  await seedTempFolders(spout.dataDir);
  try {
    const activated = await call(spout, 'PUT', `/v1/sources/${source.id}`, { active: true });
    if (activated.status !== 200) {
      const hooks = (await call(spout, 'GET', `/v1/sources/${source.id}/invocations?limit=5`)).json.data as Array<{ id: string; hook: string | null; error: RunError | null }>;
      const failed = hooks.find((r) => r.hook && r.error);
      if (failed) return { kind: 'done', stage: 'deploy', error: await recordedEnd(spout, failed.id, { ...failed.error!, message: `the ${failed.hook}() hook failed: ${failed.error!.message}` }) };
      return { kind: 'refused', stage: 'deploy', message: problemText(activated.json) };
    }
    const http = props.find((p) => p.type === '$.interface.http');
    const timer = props.some((p) => p.type === '$.interface.timer');
    if (!http && !timer && props.some((p) => p.type === '$.interface.apphook')) return { kind: 'done', stage: 'deploy', error: null };
    if (http && !timer) {
      // A webhook source: a request as its app would send one (a JSON body).
      const endpoint = source.configured_props[http.name]?.endpoint_url;
      if (endpoint) await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":"1","type":"placeholder"}' }).then((r) => r.arrayBuffer());
      const list = await call(spout, 'GET', `/v1/sources/${source.id}/invocations?limit=5`);
      const run = (list.json.data as Array<{ id: string; hook: string | null; error: RunError | null }>).find((r) => !r.hook);
      return { kind: 'done', stage: 'run', trigger: 'request', error: run?.error ? await recordedEnd(spout, run.id, run.error) : null };
    }
    const ran = await call(spout, 'POST', `/v1/sources/${source.id}/run`);
    if (ran.status !== 200) return { kind: 'done', stage: 'run', error: { name: 'Error', message: problemText(ran.json) } };
    const error = ran.json.data.error as RunError | null;
    return { kind: 'done', stage: 'run', trigger: timer ? 'timer' : 'run-now', error: error ? await recordedEnd(spout, ran.json.data.invocation_id, error) : null };
  } finally {
    await call(spout, 'DELETE', `/v1/sources/${source.id}`);
  }
}

/** Where the sources and actions of a sample are, by kind. */
export function kindOf(rel: string): 'source' | 'action' {
  return `/${rel.split(path.sep).join('/')}`.includes('/sources/') ? 'source' : 'action';
}
