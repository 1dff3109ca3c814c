import fs from 'node:fs';
import path from 'node:path';
import type { RegistryComponent } from '../../components/registry';
import type { ComponentView, Warning } from '../../contract/component-api';
import type { InvocationView } from '../../contract/invocation-api';
import type { Cassette } from '../../contract/network-api';
import type { SourceView } from '../../contract/source-api';
import { callLines, cassetteSkeleton, unansweredCalls } from '../../engine/network/cassette-skeleton';
import { type ApiClient, ApiError } from '../../remote/api-client';
import { parse } from '../support/args';
import { type ComponentRef, classify, saveFile } from '../support/component-file';
import { follow, interruption } from '../support/follow';
import { bold, dim, displayPath, note, out, printJson, printWarnings } from '../support/output';
import { completeProps, type Prop, parsePropsOption } from '../support/prop-prompts';
import { UsageError } from '../support/usage';
import { readCassette } from './cassette';
import { connect, GRANT_HELP, GRANT_OPTIONS, grantsOption, NETWORK_MODES, reachLines } from './common';

export const HELP = `Usage: spout deploy FILE|KEY|URL [--name NAME] [--props JSON|@FILE] [--cassette FILE] [--network MODE] [--skeleton FILE] [--allow-read PATH] [--allow-write PATH] [--no-follow]

Deploys a source: from a component file (its relative imports are bundled in), from a key of the
local registry (or of a saved component), or from a URL of raw code. Prints the source's id and
endpoint, then follows its events and logs until Ctrl-C (the source stays deployed).

Options:
  --name NAME          the source's name (default: the component's)
  --props JSON|@FILE   configured prop values, e.g. '{"label":"orders"}' or @props.json; props
                       still missing are asked for on a terminal, an error otherwise
  --cassette FILE      the source's cassette from the start, so deploy() and activate() replay
                       from it too (network mode "replay" unless --network says otherwise)
  --network MODE       live, record, replay, replay-or-live, or discover: calls the cassette lacks
                       are answered 200 {} and listed, so one deploy shows every call it makes
  --skeleton FILE      write the calls no recording answered as a cassette to fill in (the
                       entries of --cassette first)
${GRANT_HELP}  --no-follow          do not follow events after deploying (also when stdout is not a terminal,
                       or with --json)

Examples:
  spout deploy my-source.mjs
  spout deploy http-new-requests --name hooks
  spout deploy https://example.com/raw/new-items.mjs --props @props.json
  spout deploy new-rows.mjs --network discover --skeleton new-rows.cassette.json
  spout deploy new-rows.mjs --cassette new-rows.cassette.json
`;

/** A component to deploy: what it declares, and how POST /v1/sources names it. */
export interface Deployable {
  label: string;
  component: Pick<ComponentView, 'key' | 'name' | 'type' | 'configurable_props'>;
  /** Id or key that /v1/components/configure and /props take. */
  ref: string;
  deployWith: { component_id: string } | { component_key: string };
}

/** The POST /v1/sources fields of --cassette and --network: a cassette given replays unless a mode is. */
function networkOptions(file: string | undefined, mode: string | undefined): { cassette?: Cassette; network_mode?: string } {
  if (mode !== undefined && !NETWORK_MODES.includes(mode)) throw new UsageError(`--network: "${mode}" is not a network mode; give one of ${NETWORK_MODES.join(', ')}`);
  const cassette = file === undefined ? undefined : (readCassette(file) as Cassette);
  const network_mode = mode ?? (cassette ? 'replay' : undefined);
  return { ...(cassette ? { cassette } : {}), ...(network_mode ? { network_mode } : {}) };
}

/** Prints the calls of the deploy's hooks no recording answered; with --skeleton, writes them as a cassette to fill in. */
function reportUnanswered(runs: readonly InvocationView[], base: Cassette | undefined, skeleton: string | undefined, failed: boolean): void {
  const calls = unansweredCalls(runs);
  const logs = failed ? runs.flatMap((r) => r.logs) : [];
  for (const line of logs) note(dim(`  [${line.level}] ${line.message}`));
  if (calls.length === 0) return;
  note(`${calls.length} call${calls.length === 1 ? '' : 's'} of the deploy had no recording:`);
  for (const line of callLines(calls)) note(line);
  if (!skeleton) return note(dim('  --skeleton FILE writes them as a cassette to fill in'));
  fs.writeFileSync(skeleton, `${JSON.stringify(cassetteSkeleton(calls, base), null, 2)}\n`);
  note(`Wrote them to ${displayPath(path.resolve(skeleton))}: fill in each response, then deploy with --cassette ${displayPath(path.resolve(skeleton))}`);
}

/** Finds (and for a file or URL, saves) the component behind what `deploy` was given. */
export async function deployable(client: ApiClient, target: ComponentRef): Promise<Deployable> {
  if (target.kind === 'file') {
    const { component } = await saveFile(client, target.file);
    return { label: target.file, component, ref: component.id, deployWith: { component_id: component.id } };
  }
  if (target.kind === 'url') {
    const { data } = await client.post<{ data: ComponentView }>('/v1/components', { component_url: target.url });
    return { label: target.url, component: data, ref: data.id, deployWith: { component_id: data.id } };
  }
  let registryMiss: ApiError;
  try {
    const { data } = await client.get<{ data: RegistryComponent }>(`/v1/components/registry/${encodeURIComponent(target.key)}`);
    return { label: `registry key ${target.key}`, component: data, ref: target.key, deployWith: { component_key: target.key } };
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
    registryMiss = err;
  }
  try {
    const { data } = await client.get<{ data: ComponentView }>(`/v1/components/${encodeURIComponent(target.key)}`);
    return { label: `saved component ${target.key}`, component: data, ref: data.id, deployWith: { component_id: data.id } };
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
  }
  if (registryMiss.message.includes('could not be loaded')) throw registryMiss;
  throw new Error(`"${target.key}" is not a file, and no component has that key in the registry or among saved ones; "spout list components --registry" lists the registry`);
}

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { name: { type: 'string' }, props: { type: 'string' }, cassette: { type: 'string' }, network: { type: 'string' }, skeleton: { type: 'string' }, 'no-follow': { type: 'boolean' }, ...GRANT_OPTIONS }, HELP);
  if (!args) return;
  const ref = args.atMost(1).required(0, 'what to deploy: a component file, a registry key, or a URL of raw code');
  const given = parsePropsOption(args.string('props')) ?? {};
  const target = classify(ref);
  const client = connect(args);
  const found = await deployable(client, target);
  if (found.component.type === 'action') {
    const key = found.component.key && !found.label.includes(found.component.key) ? ` (${found.component.key})` : '';
    throw new Error(`${found.label} is an action${key}; actions are not deployed: they run as workflow steps. "spout publish FILE" saves one for that`);
  }
  const configured = await completeProps(client, found.ref, found.component.configurable_props as Prop[], given);
  const name = args.string('name');
  const permissions = grantsOption(args);
  const network = networkOptions(args.string('cassette'), args.string('network'));
  const body = { ...found.deployWith, ...(name ? { name } : {}), configured_props: configured, ...(permissions ? { permissions } : {}), ...network };
  const skeleton = args.string('skeleton');
  let deployed: { data: SourceView; warnings?: Warning[] };
  try {
    deployed = await client.post<{ data: SourceView; warnings?: Warning[] }>('/v1/sources', body);
  } catch (err) {
    // A failed deploy keeps no source: its hook run (logs, calls) comes with the error.
    const run = err instanceof ApiError ? err.problem?.run : undefined;
    if (run) reportUnanswered([run], network.cassette, skeleton, true);
    throw err;
  }
  const { data: source, warnings } = deployed;
  printWarnings(warnings);
  if (network.network_mode === 'discover' || network.network_mode === 'replay' || skeleton) {
    const { data: hooks } = await client.get<{ data: InvocationView[] }>(`/v1/sources/${source.id}/invocations?trigger=hook`);
    reportUnanswered(hooks, network.cassette, skeleton, false);
  }
  const json = args.globals.json;
  if (json) printJson(source);
  else {
    out(`Deployed ${bold(source.id)} (${source.name_slug}) from ${found.label}`);
    for (const line of reachLines(source)) out(line);
  }
  if (json || args.flag('no-follow') || !process.stdout.isTTY) return;
  out(dim(`Following events and logs. Ctrl-C stops following; the source stays deployed ("spout delete ${source.name_slug}" removes it).`));
  const stop = interruption();
  try {
    await follow(client, source.id, { events: true, logs: true, json: false, signal: stop.signal });
  } finally {
    stop.dispose();
  }
  note('');
}
