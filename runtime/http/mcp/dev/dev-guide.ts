// The component model written for an agent, offline: our own words, from docs/runtime.md, the
// design's "Components at run time" and the checks of components/validate.ts. Each topic is a
// resource (`spout://guide/{topic}`) and an answer of `component_guide`.

/** One topic of the guide. */
export interface GuideTopic {
  topic: string;
  title: string;
  text: string;
}

const TOPICS: GuideTopic[] = [
  {
    topic: 'overview',
    title: 'What a component is, and the dev loop',
    text: `A component is one ES module (.mjs, .js or .ts) whose default export is an object: {name, key, version, type: "source" | "action", description, props, methods, hooks, dedupe, run}.
- key is "<app>-<slug>" (e.g. "acme-new-order"); version is semver ("0.0.1").
- A source reacts to HTTP requests or timers and emits events with this.$emit(event, meta). An action runs once with its props and returns a value (run({ $ })).
- Imports: relative files are bundled; npm packages install on first use (offline: only cached ones); @pipedream/platform works offline.
The loop with these tools: write the file under an allowed folder → lint_component → deploy_source (HTTP or timer source) or run_action → send_http / fire_timer → read the run (error with file:line, logs, events, calls) → fix the file → update_source → send again or replay_run → delete_source when done.`,
  },
  {
    topic: 'props',
    title: 'Props and every prop type',
    text: `props maps a name to a definition; the value is this.<name> in run, hooks and methods.
Fields of a user input: type, label, description, optional (default false), default (used when nothing is configured), options (static list of values or {label, value}, or an async options({ query, prevContext, page }) method), min/max (integer), secret (string), reloadProps (the prop set is computed again by additionalProps()).
Types: "string", "integer", "boolean", "object", "any", "string[]", "integer[]", "boolean[]", "app" (an account: {type: "app", app: "acme"}), "$.interface.http" ({customResponse: true} to answer the caller yourself), "$.interface.timer" (default {intervalSeconds: 900} or {cron: "0 * * * *"}), "$.service.db", "data_store", "http_request", "dir", "alert" (a note shown in forms, no value), and app-specific types such as "$.discord.channel" (a string id offline).
propDefinition: [app, "name"] takes the definition from the app's propDefinitions, the prop's own fields on top.
Configure a deployed source with configured_props: {name: value}; an app prop with {authProvisionId: "apn_…"} (deploy_source's accounts does this for you).`,
  },
  {
    topic: 'interfaces',
    title: 'Interfaces: HTTP and timer',
    text: `HTTP: props: { http: { type: "$.interface.http", customResponse: true } }. Each request runs run(event) with event = {method, path, query, headers, bodyRaw, body} (body parsed when JSON). Without customResponse the caller gets 200 {"success":true} after the run; with it, call this.http.respond({ status: 200, headers: {...}, body: ... }) once.
Timer: props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 60 } } }. Each firing runs run(event) with {timestamp, interval_seconds} (or cron). fire_timer fires it now.
A source without run() emits the event that triggered it.`,
  },
  {
    topic: 'hooks',
    title: 'Hooks',
    text: `hooks: { async deploy() {}, async activate() {}, async deactivate() {} }, with this like run's.
Deploy runs deploy() then activate(); an update runs the old version's deactivate() then the new one's activate(); delete runs deactivate(). A hook that throws fails the deploy or update with its message, and nothing half-done is kept: the previous version stays. Use deploy() to emit a few historical events (this.$emit works there).`,
  },
  {
    topic: 'emit',
    title: '$emit and dedupe',
    text: `this.$emit(event, { id, summary, ts, name }) from run or a hook. id identifies the event for dedupe; summary is the one line shown in lists (list_events shows it); ts (epoch ms) orders one run's events, oldest first; name is a channel (default channel otherwise).
dedupe at the top level: "unique" (an id seen among the last 100 is dropped), "greatest" (only ids greater than the greatest so far; numeric ids), "last" (only events after the last id seen). Without dedupe every emit is kept. An event without a usable id is kept, with a warning in the logs.
Limits: one event at most 6 MB, one run's events 32 MB in all.`,
  },
  {
    topic: 'db',
    title: 'this.db and data stores',
    text: `props: { db: "$.service.db" } gives this.db.get(key) and this.db.set(key, value): synchronous, values through JSON (get returns a copy), kept across runs and restarts, and written even when the run throws. Typical use: the last id or timestamp seen by a polling source. A value JSON cannot hold (a function, a BigInt, a cycle) makes set throw naming the key.
data_store props are account-wide stores shared by components, asynchronous: await this.store.get(key), set(key, value, { ttl }), has, keys, delete, clear.`,
  },
  {
    topic: 'apps',
    title: 'App props and $auth',
    text: `An app file (acme.app.mjs) exports {type: "app", app: "acme", propDefinitions, methods}. A component declares props: { acme }, importing it, or { acme: { type: "app", app: "acme" } }.
this.acme.$auth holds the account's credentials (e.g. this.acme.$auth.api_key, oauth_access_token); the app's methods are bound to it (this.acme.getOrders()). Offline with no account, $auth is {} and the methods still run; deploy_source and run_action take accounts: {prop: "apn_…"} to bind a connected account. Never log $auth: records mask known credentials, but keep them out of events.`,
  },
  {
    topic: 'actions',
    title: 'Actions: run({ $ }), $.export, $.send',
    text: `An action: {type: "action", props, async run({ $ }) { … return value; }}. this.<prop> are the configured values.
$.export("$summary", "Created order 42") sets the one line shown for the run; $.export(name, value) exports anything else (a workflow's later steps read steps.<step>.<name>).
$.send.http({ method, url, data }) (and $.send.email, $.send.emit) queue what the run sends after it ends; the outbox records them. $.flow.exit(reason) ends a workflow's run early. Outgoing fetch/axios calls are recorded and, in replay network mode, answered from the cassette.`,
  },
  {
    topic: 'tests',
    title: 'Tests: spout/testing and run_tests',
    text: `A test is NAME.test.mjs (or .js, .ts) beside the component, run with node:test; run_tests runs a file or folder of them and answers each test, a failure with the file:line of its assertion.
import { test } from "node:test"; import assert from "node:assert/strict"; import { loadSource, loadAction, matchSnapshot } from "spout/testing";
const src = await loadSource("./new-order.mjs", { props: {…}, accounts: { acme: { api_key: "k" } }, now: "2026-01-01T00:00:00Z" }); t.after(() => src.close());
await src.deploy() runs deploy and activate; src.http({ method, path, headers, body }) answers {status, body, events, logs, calls, error}; src.timer() fires a timer; src.clock.advance("15m") moves the clock and fires what is due; src.db.get/set.
loadAction("./create-order.mjs", { props }).run() answers {summary, returnValue, exports, logs, calls, error}.
Outgoing calls are answered from NAME.cassette.json beside the component ({"entries": [{"request": {"method", "url"}, "response": {"status", "body"}}]}); a call with no entry fails the run, naming the closest. src.network.fail("GET https://api.x/*", { status: 429 }) injects faults. matchSnapshot(t, value) keeps NAME.test.mjs.snap.json (update_snapshots rewrites it).`,
  },
  {
    topic: 'mistakes',
    title: 'Common mistakes and the errors Spout gives',
    text: `- Calling a method by another name than methods declares (this.parseOrder() when methods has parse): "TypeError: this.parseOrder is not a function", the run's error names the file and line; get_run shows it.
- Reading this.http.body: the request is the event argument, not a prop: run(event) { event.body }.
- Forgetting await on a data store or app method: the value is a Promise (events show {}).
- $emit without an id while dedupe is set: the event is kept, and the logs say 'dedupe "unique": 1 event(s) emitted without an id were kept; pass { id } as $emit's second argument'.
- A required prop with no value: deploy_source answers 'configured_props.token: prop \`token\` is required; give it a value in configured_props' (pass it in props).
- An unknown prop type, min/max on a non-integer, secret on a non-string, a timer default without intervalSeconds or cron: lint_component reports each as an error with its path (props.<name>).
- default on a required prop, a key not "<app>-<slug>", a version that is not semver: warnings; the component still runs.
- An action without run(): error. A source's run that never ends: stopped at the run timeout (60 s) with an error.
- respond() twice, or never with customResponse: the first answer wins; none gives the caller 502 with the reason.
- Files and processes: a component may write only /tmp and folders granted to the source, and start no processes or threads; anything else fails with 'Error: Access to this API has been restricted (<path>): components may read only their own code, …' (the sandbox, Node's permission model); a program start (exec, spawn, promisify(exec)) fails as a program that cannot start, 'exec("<command>"): components may not start processes or run programs'.`,
  },
];

/** The topics, in reading order. */
export const GUIDE_TOPICS: readonly GuideTopic[] = TOPICS;

/** The URI of a topic's resource. */
export function guideUri(topic: string): string {
  return `spout://guide/${topic}`;
}

/** The topic of a guide URI, or undefined when it is not one. */
export function guideTopic(uri: string): GuideTopic | undefined {
  const match = /^spout:\/\/guide\/([a-z]+)$/.exec(uri);
  return match ? TOPICS.find((t) => t.topic === match[1]) : undefined;
}
