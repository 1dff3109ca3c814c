// Reading metadata.json: the file must be a JSON object of lists, and each record is checked on
// its own. A record the service could not use (edited by hand, or damaged in a way JSON still
// parses) is left out and kept aside in `metadata.json.damaged`, instead of stopping a start.
import fs from 'node:fs';
import { isContentName } from '../lib/content-files';
import type { ProblemSink } from '../lib/file-problems';
import { PRIVATE_FILE } from '../lib/private-files';
import type { MetadataShape } from './metadata';

type Fields = Record<string, unknown>;
const isString = (v: unknown) => typeof v === 'string';
const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A component's text kept inline (an older Spout's record) or named in `content` (a content file, component-content.ts). */
const hasText = (r: Fields, text: string) => isString(r[text]) || (isObject(r.content) && isContentName((r.content as Fields)[text] as string));

/** What each kind of record must have for the service to use it (older records lack optional fields). */
const REQUIRED: Record<Exclude<keyof MetadataShape, 'connect'>, { kind: string; fields: string; ok: (r: Fields) => boolean }> = {
  webhooks: { kind: 'webhook', fields: 'id, url and sealed_secret', ok: (r) => isString(r.id) && isString(r.url) && isString(r.sealed_secret) },
  subscriptions: {
    kind: 'subscription',
    fields: 'id, emitter_id and listener_id',
    ok: (r) => isString(r.id) && isString(r.emitter_id) && isString(r.listener_id) && (r.event_name == null || isString(r.event_name)),
  },
  components: {
    kind: 'component',
    fields: 'id, name, type, code, bundle (each inline or named in content), filename and configurable_props',
    ok: (r) => isString(r.id) && isString(r.name) && (r.type === 'source' || r.type === 'action') && hasText(r, 'code') && hasText(r, 'bundle') && isString(r.filename) && Array.isArray(r.configurable_props),
  },
  sources: {
    kind: 'source',
    fields: 'id, component_id, name, name_slug, configured_props, endpoints and active',
    ok: (r) => isString(r.id) && isString(r.component_id) && isString(r.name) && isString(r.name_slug) && isObject(r.configured_props) && isObject(r.endpoints) && typeof r.active === 'boolean',
  },
  accounts: { kind: 'connected account', fields: 'id, app and sealed_credentials', ok: (r) => isString(r.id) && isString(r.app) && isString(r.sealed_credentials) },
  auto_subscriptions: { kind: 'auto-subscription', fields: 'id, event_name and listener_id', ok: (r) => isString(r.id) && isString(r.event_name) && isString(r.listener_id) },
  workflows: { kind: 'workflow', fields: 'id, name, trigger, steps and active', ok: (r) => isString(r.id) && isString(r.name) && isObject(r.trigger) && Array.isArray(r.steps) && typeof r.active === 'boolean' },
};

/** A record left out of metadata.json, and why. */
export interface LeftOut {
  collection: keyof MetadataShape;
  index: number;
  problem: string;
  record: unknown;
}

/**
 * Parses metadata.json. Throws when the text is not JSON or not an object of lists (the whole
 * file is damaged); records that lack what the service needs are left out and listed.
 */
export function parseMetadata(text: string): { data: Partial<MetadataShape>; leftOut: LeftOut[] } {
  const parsed = JSON.parse(text) as unknown;
  if (!isObject(parsed)) throw new Error('not a JSON object');
  const data: Partial<Record<keyof MetadataShape, unknown[]>> = {};
  const leftOut: LeftOut[] = [];
  for (const [collection, rule] of Object.entries(REQUIRED) as Array<[Exclude<keyof MetadataShape, 'connect'>, (typeof REQUIRED)[Exclude<keyof MetadataShape, 'connect'>]]>) {
    const list = (parsed as Fields)[collection];
    if (list === undefined) continue; // written by a version without it
    if (!Array.isArray(list)) throw new Error(`"${collection}" is not a list`);
    data[collection] = list.filter((record, index) => {
      if (isObject(record) && rule.ok(record as Fields)) return true;
      const id = isObject(record) && isString((record as Fields).id) ? ` ${(record as Fields).id as string}` : '';
      leftOut.push({ collection, index, record, problem: `${collection}[${index}]${id} is not a ${rule.kind} the service can use (it needs ${rule.fields})` });
      return false;
    });
  }
  // The Connect section is one object, normalised by connectShape when metadata opens.
  const connect = (parsed as Fields).connect;
  return { data: { ...(data as Partial<MetadataShape>), ...(isObject(connect) ? { connect: connect as MetadataShape['connect'] } : {}) }, leftOut };
}

/** Keeps records left out in `<file>.damaged` (one JSON line each) and reports them. */
export function setAsideRecords(file: string, leftOut: LeftOut[], report?: ProblemSink): void {
  if (leftOut.length === 0) return;
  const aside = `${file}.damaged`;
  fs.appendFileSync(aside, leftOut.map((l) => `${JSON.stringify({ collection: l.collection, record: l.record })}\n`).join(''), { mode: PRIVATE_FILE });
  for (const l of leftOut) report?.({ file, message: `${l.problem}; left out and kept in metadata.json.damaged` });
}
