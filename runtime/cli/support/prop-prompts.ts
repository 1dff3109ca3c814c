import fs from 'node:fs';
import { createInterface } from 'node:readline/promises';
import type { AccountView, DataStoreView } from '../../contract/component-api';
import type { ApiClient } from '../../remote/api-client';
import { bold, dim, note } from './output';
import { UsageError } from './usage';

/** A prop as `configurable_props` describe it. */
export type Prop = Record<string, unknown> & { name: string; type: string };

const USER_INPUT = new Set(['boolean', 'boolean[]', 'integer', 'integer[]', 'string', 'string[]', 'object', 'any']);
/** Props whose configured value is also kept when `spout update --props` merges values. */
const KEPT_ON_UPDATE = new Set([...USER_INPUT, 'app', 'data_store', 'http_request']);

/** `--props JSON` or `--props @file.json`: a JSON object of configured values. */
export function parsePropsOption(text: string | undefined): Record<string, unknown> | undefined {
  return parseObjectOption('--props', text, '{"label":"orders"}');
}

/** An option's text, given inline or as `@file` (the file's content); an unreadable file is a usage error naming the option. */
export function optionText(option: string, text: string): string {
  if (!text.startsWith('@')) return text;
  const file = text.slice(1);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${option}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** An option holding a JSON object, given inline or as `@file.json`; errors name the option and show `example`. */
export function parseObjectOption(option: string, text: string | undefined, example: string): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  const json = optionText(option, text);
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    throw new UsageError(`${option}: ${text.startsWith('@') ? `${text.slice(1)} is` : 'the value is'} not valid JSON (${(err as Error).message}); give an object such as '${example}' or @file.json`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`${option}: give a JSON object, such as '${example}'`);
  return value as Record<string, unknown>;
}

/**
 * Required props with no value given and no default, that a user configures. App props are not
 * among them: offline a component runs without a connected account (the service warns).
 */
export function missingProps(props: Prop[], given: Record<string, unknown>): Prop[] {
  return props.filter((p) => {
    // A `static` timer is the source's fixed schedule.
    if (p.optional === true || p.disabled === true || p.hidden === true || p.default !== undefined || p.static !== undefined || p.name in given) return false;
    return USER_INPUT.has(p.type) || ['data_store', '$.interface.timer', 'http_request'].includes(p.type);
  });
}

/** The current values of a source worth sending back with an update (interfaces and masks of other kinds left out). */
export function keptValues(props: Prop[], configured: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const p of props) if (KEPT_ON_UPDATE.has(p.type) && p.name in configured) kept[p.name] = configured[p.name];
  return kept;
}

/** True when the user can be asked: stdin and stderr (where prompts go) are terminals. */
export function canPrompt(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}

function describe(p: Prop): string {
  return `${p.name} (${p.type}${p.label && p.label !== p.name ? `, "${String(p.label)}"` : ''})`;
}

/**
 * Completes the configured values: on a terminal each missing prop is asked for (static options
 * and async options as choices, accounts and data stores listed); elsewhere a usage error names
 * the props and how to pass them. Props with `reloadProps` reload the prop set after an answer.
 */
export async function completeProps(client: ApiClient, componentRef: string, initialProps: Prop[], given: Record<string, unknown>): Promise<Record<string, unknown>> {
  const values = { ...given };
  let props = initialProps;
  let missing = missingProps(props, values);
  if (missing.length === 0) return values;
  if (!canPrompt()) {
    const example = Object.fromEntries(missing.map((p) => [p.name, exampleValue(p)]));
    throw new UsageError(`missing required props: ${missing.map(describe).join(', ')}. Pass them with --props '${JSON.stringify(example)}' (or --props @props.json), or run in a terminal to be asked`);
  }
  const prompter = new Prompter();
  try {
    for (let round = 0; missing.length > 0 && round < 50; round++) {
      const prop = missing[0] as Prop;
      values[prop.name] = await askProp(client, prompter, componentRef, prop, values);
      if (prop.reloadProps === true) {
        const reloaded = await client.post<{ data: { configurable_props: Prop[] } }>('/v1/components/props', { id: componentRef, configured_props: values });
        props = reloaded.data.configurable_props;
      }
      missing = missingProps(props, values);
    }
  } finally {
    prompter.close();
  }
  return values;
}

function exampleValue(p: Prop): unknown {
  switch (p.type) {
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'string[]':
      return ['…'];
    case 'integer[]':
      return [1];
    case 'object':
      return {};
    case 'app':
      return { authProvisionId: 'apn_…' };
    case 'data_store':
      return { dataStore: 'ds_…' };
    case '$.interface.timer':
      return { intervalSeconds: 60 };
    case 'http_request':
      return { method: 'GET', url: 'https://…' };
    default:
      return '…';
  }
}

/** Line prompts on stderr (stdout stays the command's output). */
class Prompter {
  private rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });

  ask(question: string): Promise<string> {
    return this.rl.question(question).then((a) => a.trim());
  }

  /** Asks without echoing what is typed (secret props). */
  async secret(question: string): Promise<string> {
    this.rl.close();
    const stdin = process.stdin;
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      // Echo off before the question shows: nothing typed after it is printed.
      stdin.setRawMode(true);
      process.stderr.write(question);
      stdin.resume();
      const onData = (chunk: Buffer) => {
        for (const ch of chunk.toString('utf8')) {
          if (ch === '\r' || ch === '\n') {
            done();
            return resolve(text);
          }
          if (ch === '\u0003') {
            done();
            return reject(new Error('cancelled'));
          }
          if (ch === '\u007f' || ch === '\b') text = text.slice(0, -1);
          else text += ch;
        }
      };
      const done = () => {
        stdin.off('data', onData);
        stdin.setRawMode(false);
        stdin.pause();
        process.stderr.write('\n');
      };
      stdin.on('data', onData);
    });
    this.rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    return answer;
  }

  close(): void {
    this.rl.close();
  }
}

/** An option as the prompt lists it. */
export interface Choice {
  label: string;
  value: unknown;
}

function asChoices(options: unknown[]): Choice[] {
  return options.map((o) => (o && typeof o === 'object' && 'value' in o ? { label: String((o as { label?: unknown }).label ?? (o as { value: unknown }).value), value: (o as { value: unknown }).value } : { label: String(o), value: o }));
}

async function askProp(client: ApiClient, prompter: Prompter, componentRef: string, prop: Prop, values: Record<string, unknown>): Promise<unknown> {
  const title = `${bold(String(prop.label ?? prop.name), process.stderr)}${dim(` (${prop.name}, ${prop.type})`, process.stderr)}`;
  note(`\n${title}${prop.description ? `\n${dim(String(prop.description), process.stderr)}` : ''}`);
  if (prop.type === 'app') return askAccount(client, prompter, prop);
  if (prop.type === 'data_store') return askDataStore(client, prompter);
  if (prop.type === '$.interface.timer') {
    for (;;) {
      const a = await prompter.ask('Run every N seconds, or a cron expression: ');
      if (/^\d+$/.test(a) && Number(a) > 0) return { intervalSeconds: Number(a) };
      if (a.split(/\s+/).length >= 5) return { cron: a };
      note('Give a whole number of seconds (e.g. 60) or a cron expression (e.g. "*/5 * * * *").');
    }
  }
  if (prop.type === 'http_request') {
    const url = await askUntil(prompter, 'URL: ', (a) => (URL.canParse(a) ? null : 'give an absolute URL such as https://example.com/api'));
    const method = (await prompter.ask('Method [GET]: ')).toUpperCase() || 'GET';
    return { method, url };
  }
  let choices: Choice[] | null = Array.isArray(prop.options) ? asChoices(prop.options) : null;
  let page = 0;
  let context: unknown = null;
  const loadOptions = async () => {
    const answer = await client.post<{ options: unknown[]; context: unknown; errors?: string[] }>('/v1/components/configure', {
      id: componentRef,
      prop_name: prop.name,
      configured_props: values,
      page,
      ...(context && typeof context === 'object' ? { prev_context: context } : {}),
    });
    for (const e of answer.errors ?? []) note(`options: ${e}`);
    context = answer.context;
    return asChoices(answer.options ?? []);
  };
  if (!choices && prop.hasOptionsMethod === true) choices = await loadOptions();
  const multiple = prop.type.endsWith('[]');
  for (;;) {
    if (choices?.length) {
      choices.forEach((c, i) => note(`  ${String(i + 1).padStart(2)}) ${c.label}`));
      const more = prop.hasOptionsMethod === true ? ', m for more' : '';
      const a = await prompter.ask(multiple ? `Choose numbers separated by commas (or type values${more}): ` : `Choose 1-${choices.length} (or type a value${more}): `);
      if (a === 'm' && prop.hasOptionsMethod === true) {
        page++;
        const next = await loadOptions();
        if (next.length === 0) note('No more options.');
        else choices = next;
        continue;
      }
      const picked = pick(choices, a, multiple, prop.withLabel === true);
      if (picked !== undefined) return picked;
      const typed = convert(prop, a);
      if (typed.ok) return typed.value;
      note(typed.problem);
      continue;
    }
    const a = prop.secret === true ? await prompter.secret(`${prop.name}: `) : await prompter.ask(`${prop.name}: `);
    const typed = convert(prop, a);
    if (typed.ok) return typed.value;
    note(typed.problem);
  }
}

/** The chosen options' values; a withLabel prop's are kept with their labels, as the component reads them. */
export function pick(choices: Choice[], answer: string, multiple: boolean, withLabel: boolean): unknown {
  const numbers = answer.split(',').map((s) => s.trim());
  if (!numbers.every((n) => /^\d+$/.test(n) && Number(n) >= 1 && Number(n) <= choices.length)) return undefined;
  const values = numbers.map((n) => {
    const choice = choices[Number(n) - 1] as Choice;
    return withLabel ? { label: choice.label, value: choice.value } : choice.value;
  });
  return multiple ? values : values.length === 1 ? values[0] : undefined;
}

async function askUntil(prompter: Prompter, question: string, problem: (answer: string) => string | null): Promise<string> {
  for (;;) {
    const a = await prompter.ask(question);
    const p = problem(a);
    if (!p) return a;
    note(p);
  }
}

/** A typed answer converted to the prop's type, or what is wrong with it. */
function convert(prop: Prop, answer: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  if (answer === '') return { ok: false, problem: `${prop.name} is required; give a value` };
  const item = prop.type.replace(/\[\]$/, '');
  const one = (text: string): { ok: true; value: unknown } | { ok: false; problem: string } => {
    if (item === 'integer') {
      const n = Number(text);
      if (!Number.isInteger(n)) return { ok: false, problem: `"${text}" is not a whole number` };
      if (typeof prop.min === 'number' && n < prop.min) return { ok: false, problem: `must be at least ${prop.min}` };
      if (typeof prop.max === 'number' && n > prop.max) return { ok: false, problem: `must be at most ${prop.max}` };
      return { ok: true, value: n };
    }
    if (item === 'boolean') {
      if (/^(y|yes|true|1)$/i.test(text)) return { ok: true, value: true };
      if (/^(n|no|false|0)$/i.test(text)) return { ok: true, value: false };
      return { ok: false, problem: 'answer yes or no' };
    }
    if (item === 'object' || item === 'any') {
      try {
        const v = JSON.parse(text) as unknown;
        if (item === 'object' && (!v || typeof v !== 'object' || Array.isArray(v))) return { ok: false, problem: 'give a JSON object such as {"a": 1}' };
        return { ok: true, value: v };
      } catch {
        return item === 'any' ? { ok: true, value: text } : { ok: false, problem: 'give a JSON object such as {"a": 1}' };
      }
    }
    return { ok: true, value: text };
  };
  if (!prop.type.endsWith('[]')) return one(answer);
  const out: unknown[] = [];
  for (const part of answer.split(',').map((s) => s.trim())) {
    const r = one(part);
    if (!r.ok) return r;
    out.push(r.value);
  }
  return { ok: true, value: out };
}

async function askAccount(client: ApiClient, prompter: Prompter, prop: Prop): Promise<unknown> {
  const accounts = (await client.all<AccountView>('/v1/accounts')).filter((a) => a.app === prop.app);
  if (accounts.length === 0) {
    throw new Error(`no connected account for app "${String(prop.app)}"; connect one in the UI (Accounts) or with POST /v1/accounts, then try again`);
  }
  accounts.forEach((a, i) => note(`  ${String(i + 1).padStart(2)}) ${a.name} (${a.id})`));
  const a = await askUntil(prompter, `Choose 1-${accounts.length}: `, (x) => (/^\d+$/.test(x) && Number(x) >= 1 && Number(x) <= accounts.length ? null : `give a number from 1 to ${accounts.length}`));
  return { authProvisionId: (accounts[Number(a) - 1] as AccountView).id };
}

async function askDataStore(client: ApiClient, prompter: Prompter): Promise<unknown> {
  const stores = await client.all<DataStoreView>('/v1/data_stores');
  stores.forEach((s, i) => note(`  ${String(i + 1).padStart(2)}) ${s.name} (${s.id}, ${s.record_count} records)`));
  const a = await askUntil(prompter, stores.length ? `Choose 1-${stores.length}, or n for a new store: ` : 'No data stores yet; name of a new one: ', (x) => (x === '' ? 'give an answer' : null));
  const index = Number(a);
  if (stores.length && Number.isInteger(index) && index >= 1 && index <= stores.length) return { dataStore: (stores[index - 1] as DataStoreView).id };
  const name = stores.length && a.toLowerCase() === 'n' ? await askUntil(prompter, 'Name of the new store: ', (x) => (x ? null : 'give a name')) : a;
  const created = await client.post<{ data: DataStoreView }>('/v1/data_stores', { name });
  note(`Created data store ${created.data.id} (${name})`);
  return { dataStore: created.data.id };
}
