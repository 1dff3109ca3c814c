import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FileBundler } from '../../components/bundle-file';
import type { VersionConflictView } from '../../contract/change-api';
import type { ComponentView, Warning } from '../../contract/component-api';
import type { InvocationView } from '../../contract/invocation-api';
import type { Cassette } from '../../contract/network-api';
import type { ListResponse } from '../../contract/page';
import type { SourceView } from '../../contract/source-api';
import { type ApiClient, ApiError, errorText } from '../../remote/api-client';
import { parse } from '../support/args';
import { BundleError, bundle, fileBundler } from '../support/component-file';
import { follow, interruption } from '../support/follow';
import { bold, clock, dim, displayPath, green, invocationLine, note, out, printJsonLine, printWarnings, red } from '../support/output';
import { canPrompt, completeProps, keptValues, type Prop, parsePropsOption } from '../support/prop-prompts';
import { printConflict, watchVersions, writeVersionCode } from '../support/remote-changes';
import { resolveSource } from '../support/resolve';
import { UsageError } from '../support/usage';
import { cassetteFileOf, readCassette } from './cassette';
import { connect, reachLines } from './common';

export const HELP = `Usage: spout dev [--dc SRC] [--name NAME] [--props JSON|@FILE] FILE

Develops a source: deploys FILE (its relative imports bundled in), prints its endpoint, streams its
logs and events, and redeploys on every save of the file or of a file it imports. A redeploy is an
update: the source keeps its dc_ id, endpoint and this.db. A file with errors is reported and the
last good version keeps running. Ctrl-C stops watching; the source stays deployed. A change made
elsewhere (the UI, the CLI) is reported with where its code is; the next save is held rather than
replacing it, and saving again replaces it.

Options:
  --dc SRC             attach to a deployed source (id, name slug or unique prefix) instead of
                       deploying a new one; FILE replaces its code
  --name NAME          name of the new source (default: the component's)
  --props JSON|@FILE   configured prop values; props still missing are asked for on a terminal
  --record             save the source's outgoing HTTP calls to NAME.cassette.json beside FILE
                       (written when you stop, and after each redeploy)
  --replay             answer its outgoing calls from NAME.cassette.json, with no network; a call
                       that was not recorded fails saying so
  --replay-last        after each redeploy, send the source's last recorded HTTP request again
                       and print how the new code handled it

With --json, prints one JSON object per line: {"type":"deployed"|"attached"|"updated"|"error"|
"unchanged"|"event"|"log"|"replayed"|"cassette"|"changed"|"conflict"|"stopped", …}.
`;

/**
 * Time without file-change notices before a redeploy starts: an editor's save (a write, or a new
 * file renamed over the old) notifies within a millisecond or two. A write still going on after it
 * notifies again, and its end is deployed next (one more redeploy follows any change during one).
 */
const DEBOUNCE_MS = 10;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { dc: { type: 'string' }, name: { type: 'string' }, props: { type: 'string' }, 'replay-last': { type: 'boolean' }, record: { type: 'boolean' }, replay: { type: 'boolean' } }, HELP);
  if (!args) return;
  const file = path.resolve(args.atMost(1).required(0, 'the component file to develop (spout dev FILE)'));
  const shown = displayPath(file);
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new UsageError(`${shown}: no such file`);
  const given = parsePropsOption(args.string('props'));
  const json = args.globals.json;
  const client = connect(args, 'dev');
  if (args.flag('record') && args.flag('replay')) throw new UsageError('give --record or --replay, not both');
  const network = args.flag('record') ? ('record' as const) : args.flag('replay') ? ('replay' as const) : null;
  const cassetteFile = cassetteFileOf(file);
  if (network === 'replay' && !fs.existsSync(cassetteFile)) throw new UsageError(`--replay: there is no ${displayPath(cassetteFile)} to replay; record one first with "spout dev ${shown} --record"`);
  const session = new DevSession(client, file, shown, json, args.string('name'), given, args.flag('replay-last'), network && { mode: network, file: cassetteFile });
  if (args.string('dc') !== undefined) session.source = await resolveSource(client, args.string('dc') as string);
  await session.start();
}

class DevSession {
  source: SourceView | null = null;
  /** The version this session deployed last: a save is based on it, and a newer one was made elsewhere. */
  private version: number | null = null;
  /** The code this session deployed last (a version made elsewhere that kept it loses nothing to a save). */
  private deployedCode: string | null = null;
  private lastHash: string | null = null;
  /** The last save was refused (its error is the last thing printed about the file). */
  private lastFailed = false;
  /** The warnings printed last, as JSON (printed again only when they change). */
  private lastWarnings = '[]';
  private watched = new Set<string>();
  /** Rebuilds the file on each save (esbuild's incremental context). */
  private bundler: FileBundler | null = null;
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private streaming = false;
  private fatal: Error | null = null;
  private readonly stop = interruption();
  private attachPending: boolean;

  constructor(
    private readonly client: ApiClient,
    private readonly file: string,
    private readonly shown: string,
    private readonly json: boolean,
    private readonly name: string | undefined,
    private readonly given: Record<string, unknown> | undefined,
    private readonly replayLast = false,
    /** `--record` / `--replay`: the mode, and the cassette file beside the component. */
    private readonly network: { mode: 'record' | 'replay'; file: string } | null = null,
  ) {
    this.attachPending = true;
  }

  async start(): Promise<void> {
    const stopped = new Promise<void>((resolve) => this.stop.signal.addEventListener('abort', () => resolve(), { once: true }));
    this.watch([this.file]);
    this.bundler = await fileBundler(this.file);
    await this.redeploy();
    if (!this.stop.signal.aborted) {
      // Until something is deployed there is no source to keep: say so instead of "stays deployed".
      const onStop = this.source ? 'Ctrl-C stops; the source stays deployed.' : 'Ctrl-C stops.';
      if (!this.json) out(dim(`Watching ${this.shown}${this.watched.size > 1 ? ` and ${this.watched.size - 1} imported file${this.watched.size > 2 ? 's' : ''}` : ''} for changes. ${onStop}`));
      await stopped;
    }
    for (const w of this.watchers.values()) w.close();
    if (this.timer) clearTimeout(this.timer);
    await this.bundler?.dispose();
    this.stop.dispose();
    if (this.fatal) throw this.fatal;
    await this.saveCassette();
    const id = this.source?.id;
    if (this.json) printJsonLine({ type: 'stopped', source_id: id ?? null });
    else if (id) note(`\nStopped watching. ${id} stays deployed: "spout dev --dc ${id} ${this.shown}" reattaches, "spout delete ${id}" removes it.`);
    else note('\nStopped watching; nothing was deployed.');
  }

  /** Watches the folders of the inputs (editors often replace a file rather than write it in place). */
  private watch(inputs: string[]): void {
    this.watched = new Set(inputs.map((f) => path.resolve(f)));
    for (const dir of new Set([...this.watched].map((f) => path.dirname(f)))) {
      if (this.watchers.has(dir)) continue;
      try {
        const watcher = fs.watch(dir, (_event, name) => {
          if (!name || this.watched.has(path.join(dir, name.toString()))) this.schedule();
        });
        watcher.on('error', () => undefined);
        this.watchers.set(dir, watcher);
      } catch (err) {
        note(`cannot watch ${dir}: ${(err as Error).message}`);
      }
    }
  }

  private schedule(): void {
    if (this.stop.signal.aborted) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.running) {
        this.again = true;
        return;
      }
      this.running = (async () => {
        do {
          this.again = false;
          await this.redeploy();
        } while (this.again && !this.stop.signal.aborted);
      })().finally(() => (this.running = null));
    }, DEBOUNCE_MS);
  }

  /** Bundles the file and deploys (first time), attaches (`--dc`) or updates; errors are reported, not fatal. */
  private async redeploy(): Promise<void> {
    const started = Date.now();
    let bundled: Awaited<ReturnType<typeof bundle>>;
    try {
      bundled = await bundle(this.file, this.bundler ?? undefined);
    } catch (err) {
      this.lastFailed = true;
      if (!(err instanceof BundleError)) return this.failed(err);
      return this.report(err.problems);
    }
    this.watch(bundled.inputs);
    const hash = createHash('sha256').update(bundled.code).digest('hex');
    if (hash === this.lastHash && !this.attachPending) return this.unchanged();
    try {
      if (!this.source) await this.deployNew(bundled.code, bundled.filename);
      else await this.update(bundled.code, bundled.filename, started);
      this.lastHash = hash;
      this.deployedCode = bundled.code;
      this.lastFailed = false;
    } catch (err) {
      // Before anything runs, only a rejected file is worth waiting on; bad usage, an unreachable
      // service or an unknown source end the session.
      if (err instanceof ApiError && err.problem?.conflict) return this.conflicted(err.problem.conflict);
      if (err instanceof UsageError || (this.lastHash === null && !(err instanceof ApiError && err.status === 400))) {
        this.fatal = err as Error;
        this.stop.abort();
        return;
      }
      this.lastFailed = true;
      this.failed(err);
    }
  }

  private async deployNew(code: string, filename: string): Promise<void> {
    const { data: component } = await this.client.post<{ data: ComponentView }>('/v1/components', { component_code: code, component_filename: filename });
    if (component.type === 'action') throw new UsageError(`${this.shown} is an action; actions are not developed with "spout dev" (they run as workflow steps): "spout publish ${this.shown}" saves it`);
    const configured = await completeProps(this.client, component.id, component.configurable_props as Prop[], this.given ?? {});
    const { data, warnings } = await this.client.post<{ data: SourceView; warnings?: Warning[] }>('/v1/sources', { component_id: component.id, ...(this.name ? { name: this.name } : {}), configured_props: configured, ...this.networkFields() });
    this.warn(warnings);
    this.source = data;
    this.version = data.version;
    this.attachPending = false;
    this.announce('deployed', data, `Deployed ${bold(data.id)} (${data.name_slug}) from ${this.shown}`);
    this.startStreams();
  }

  private async update(code: string, filename: string, started: number): Promise<void> {
    const source = this.source as SourceView;
    const attaching = this.attachPending;
    if (attaching) this.startStreams();
    // Attaching replaces the source's code at once; later saves are based on what this session deployed.
    const body: Record<string, unknown> = { component_code: code, component_filename: filename, ...(attaching ? {} : { base_version: this.version }) };
    if (attaching && this.name) body.name = this.name;
    if (attaching && this.given) body.configured_props = { ...(await this.currentValues(source)), ...this.given };
    if (attaching && this.network) {
      const { cassette, network_mode } = this.networkFields();
      if (cassette) await this.client.put(`/v1/sources/${source.id}/cassette`, cassette);
      body.network_mode = network_mode;
    }
    let updated: SourceView;
    let warnings: Warning[] | undefined;
    try {
      ({ data: updated, warnings } = await this.client.put<{ data: SourceView; warnings?: Warning[] }>(`/v1/sources/${source.id}`, body));
    } catch (err) {
      // The new code needs a value the source does not have: ask for it on a terminal.
      const required = err instanceof ApiError && err.status === 400 && (err.problem?.errors ?? []).some((e) => e.path.startsWith('configured_props.') && e.message.includes('is required'));
      if (!required || !canPrompt()) throw err;
      const { data: component } = await this.client.post<{ data: ComponentView }>('/v1/components', { component_code: code, component_filename: filename });
      const current = { ...(await this.currentValues(source)), ...((body.configured_props as Record<string, unknown> | undefined) ?? {}) };
      const configured = await completeProps(this.client, component.id, component.configurable_props as Prop[], keptValues(component.configurable_props as Prop[], current));
      ({ data: updated, warnings } = await this.client.put<{ data: SourceView; warnings?: Warning[] }>(`/v1/sources/${source.id}`, { ...body, configured_props: configured }));
    }
    this.warn(warnings);
    this.source = updated;
    this.version = updated.version;
    this.attachPending = false;
    if (attaching) this.announce('attached', updated, `Attached to ${bold(updated.id)} (${updated.name_slug}); it now runs ${this.shown}`);
    else if (this.json) printJsonLine({ type: 'updated', source: updated, ms: Date.now() - started });
    else out(`${dim(clock(Date.now()))} ${green('updated')} ${updated.id} in ${Date.now() - started} ms`);
    if (!attaching && this.replayLast) await this.replayLastRequest(updated);
    await this.saveCassette();
  }

  /** A save refused because the source changed elsewhere: said with its code written out; the next save replaces that version. */
  private async conflicted(conflict: VersionConflictView): Promise<void> {
    const base = this.version ?? conflict.base_version;
    this.version = conflict.current_version;
    try {
      const { file, source } = await writeVersionCode(this.client, conflict.id);
      // Only props, name or active changed there: this save loses nothing of it, so it goes on now.
      if (source.code === this.deployedCode) this.again = true;
      else printConflict(source, file, base, this.shown, this.json);
    } catch (err) {
      this.failed(err);
    }
  }

  /** With --record or --replay: the mode for the source, and for replay the cassette to start with. */
  private networkFields(): { network_mode?: string; cassette?: unknown } {
    if (!this.network) return {};
    return this.network.mode === 'replay' ? { network_mode: 'replay', cassette: readCassette(this.network.file) } : { network_mode: 'record' };
  }

  /** With --record: writes what the source recorded beside the component file. */
  private async saveCassette(): Promise<void> {
    if (this.network?.mode !== 'record' || !this.source) return;
    try {
      const { data } = await this.client.get<{ data: Cassette }>(`/v1/sources/${this.source.id}/cassette`);
      fs.writeFileSync(this.network.file, `${JSON.stringify(data, null, 2)}\n`);
      if (this.json) printJsonLine({ type: 'cassette', file: this.network.file, entries: data.entries.length });
      else out(dim(`${data.entries.length} recorded call${data.entries.length === 1 ? '' : 's'} in ${displayPath(this.network.file)}`));
    } catch (err) {
      this.failed(err);
    }
  }

  /** Sends the source's newest recorded HTTP request again, and prints how the new code handled it. */
  private async replayLastRequest(source: SourceView): Promise<void> {
    const { data } = await this.client.get<ListResponse<InvocationView>>(`/v1/sources/${source.id}/invocations`, { trigger: 'http', limit: 1 });
    const last = data[0];
    if (!last) {
      if (!this.json) out(dim('--replay-last: no request recorded yet; send one to the endpoint'));
      return;
    }
    try {
      const { data: replayed } = await this.client.post<{ data: InvocationView }>(`/v1/invocations/${last.id}/replay`, {});
      if (this.json) printJsonLine({ type: 'replayed', invocation: replayed });
      else {
        out(invocationLine(replayed));
        if (replayed.error?.stack) out(red(replayed.error.stack));
      }
    } catch (err) {
      this.failed(err);
    }
  }

  /** Prints the warnings of a deploy or redeploy when they differ from the last ones printed (each save would repeat them). */
  private warn(warnings: Warning[] | undefined): void {
    const text = JSON.stringify(warnings ?? []);
    if (text === this.lastWarnings) return;
    this.lastWarnings = text;
    printWarnings(warnings);
  }

  /** The source's current values worth sending back (interfaces left out, secrets masked: the mask keeps them). */
  private async currentValues(source: SourceView): Promise<Record<string, unknown>> {
    const { data: component } = await this.client.get<{ data: ComponentView }>(`/v1/components/${source.component_id}`);
    return keptValues(component.configurable_props as Prop[], source.configured_props);
  }

  private announce(type: 'deployed' | 'attached', source: SourceView, headline: string): void {
    if (this.json) {
      printJsonLine({ type, source });
      return;
    }
    out(headline);
    for (const line of reachLines(source)) out(line);
  }

  private startStreams(): void {
    if (this.streaming || !this.source) return;
    this.streaming = true;
    const id = this.source.id;
    watchVersions(this.client, {
      sourceId: id,
      known: () => this.version,
      deployedCode: () => this.deployedCode,
      adopt: (version) => (this.version = version),
      busy: () => this.running !== null || this.attachPending,
      shown: this.shown,
      json: this.json,
      signal: this.stop.signal,
    });
    follow(this.client, id, { events: true, logs: true, json: this.json, signal: this.stop.signal }).catch((err: Error) => {
      if (this.stop.signal.aborted) return;
      this.fatal = err instanceof ApiError && err.status === 404 ? new Error(`${id} is gone (deleted?); stopped. Run "spout dev ${this.shown}" to deploy it again`) : err;
      this.stop.abort();
    });
  }

  /** A save that brings the file back to the running version: said, so a refused save's error is not the last line. */
  private unchanged(): void {
    if (!this.lastFailed || !this.source) return;
    this.lastFailed = false;
    const message = `${this.shown} matches the running version ${this.version}: nothing to deploy; the error above is fixed`;
    if (this.json) printJsonLine({ type: 'unchanged', source_id: this.source.id, message });
    else out(`${dim(clock(Date.now()))} ${green('unchanged')} ${message}`);
  }

  private report(problems: string[]): void {
    const keeps = this.source ? `${this.source.id} keeps running the last good version` : 'nothing is deployed yet; save a fixed version';
    if (this.json) {
      printJsonLine({ type: 'error', message: `${this.shown} has errors; ${keeps}`, errors: problems });
      return;
    }
    out(`${dim(clock(Date.now()))} ${red('error')} ${this.shown} has errors; ${keeps}:`);
    for (const p of problems) out(`  ${p}`);
  }

  private failed(err: unknown): void {
    const text = errorText(err);
    const problems = err instanceof ApiError && err.problem?.errors?.length ? err.problem.errors.map((e) => `${e.path ? `${e.path}: ` : ''}${e.message}`) : [text];
    if (err instanceof ApiError && err.status === 400 && this.source && problems.some((p) => p.includes('is required'))) {
      problems.push(`give the value with: spout update ${this.source.id} --code ${this.shown} --props '{"…": …}'`);
    }
    this.report(problems);
  }
}
