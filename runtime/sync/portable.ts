// Resources as sync compares and moves them: a side-neutral content per kind (ids of other
// resources kept as that side's own ids), its hash, and its rendering for a readable diff.
import { createHash } from 'node:crypto';
import type { Kind } from '../contract/sync-api';

/** One resource as a side has it. */
export interface Resource {
  kind: Kind;
  /** The side's own id (`dc_…`, `wh_…`, `sub_…`). */
  id: string;
  /** A name for people. */
  name: string;
  /** What is compared and moved; secret values are never in it. */
  content: Record<string, unknown>;
  /** Names of secret values it holds, masked here (`token`, or `step.prop` for workflows). */
  secrets: string[];
  /** Things to tell the user about it whichever way it goes. */
  notes: string[];
  /** Data store records (only read with --with-data); compared apart from the content. */
  records?: RecordValue[];
  /** Props it waits for on this side (deployed inactive without them). */
  missing?: string[];
}

/** A data store record as sync moves it. */
export interface RecordValue {
  key: string;
  value: unknown;
  expires_at: number | null;
}

/** The kind an id names, by its prefix; null for globs (`dc_*`) and unknown prefixes. */
export function kindOfId(id: string): Kind | null {
  if (id.endsWith('*')) return null;
  const prefix = id.slice(0, id.indexOf('_'));
  return ({ dc: 'source', p: 'workflow', wh: 'webhook', apn: 'account', ds: 'data_store' } as Record<string, Kind>)[prefix] ?? null;
}

/** JSON with object keys sorted, so equal content always hashes the same. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** sha256 of a value's stable JSON, hex, shortened. */
export function hashOf(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('hex').slice(0, 32);
}

/**
 * The hash a link keeps of a resource. `active` is left out while the receiving side waits for
 * secrets (it is inactive there on purpose until the user enters them).
 */
export function contentHash(resource: Resource, ignoreActive = false): string {
  const { active: _active, ...rest } = resource.content;
  return hashOf(ignoreActive ? rest : resource.content);
}

/** Where a resource's content names other resources: each path is read and rewritten by `mapRefs`. */
type RefVisitor = (id: string, where: string) => string | undefined;

function mapPropRefs(props: Record<string, unknown>, visit: RefVisitor, where: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(props)) {
    const v = value as { authProvisionId?: unknown; dataStore?: unknown } | null;
    if (v && typeof v === 'object' && typeof v.authProvisionId === 'string') {
      const id = visit(v.authProvisionId, `${where}${name}`);
      if (id !== undefined) out[name] = { authProvisionId: id };
    } else if (v && typeof v === 'object' && typeof v.dataStore === 'string') {
      const id = visit(v.dataStore, `${where}${name}`);
      if (id !== undefined) out[name] = { dataStore: id };
    } else out[name] = value;
  }
  return out;
}

/**
 * The content with every id of another resource passed through `visit` (which returns the id to
 * use, or undefined to drop a prop that names it). Emitters and listeners that `visit` cannot map
 * stay as they are; the caller checks them.
 */
export function mapRefs(kind: Kind, content: Record<string, unknown>, visit: RefVisitor): Record<string, unknown> {
  switch (kind) {
    case 'source':
      return { ...content, configured_props: mapPropRefs(content.configured_props as Record<string, unknown>, visit, '') };
    case 'workflow': {
      const trigger = content.trigger as { type: string; source_id?: string };
      const steps = content.steps as Array<{ name: string; configured_props: Record<string, unknown> }>;
      return {
        ...content,
        trigger: trigger.type === 'source' && trigger.source_id ? { ...trigger, source_id: visit(trigger.source_id, 'trigger') ?? trigger.source_id } : trigger,
        steps: steps.map((s) => ({ ...s, configured_props: mapPropRefs(s.configured_props, visit, `${s.name}.`) })),
      };
    }
    case 'subscription':
      return { ...content, emitter_id: visit(content.emitter_id as string, 'emitter') ?? content.emitter_id, listener_id: visit(content.listener_id as string, 'listener') ?? content.listener_id };
    case 'auto_subscription':
      return { ...content, listener_id: visit(content.listener_id as string, 'listener') ?? content.listener_id };
    default:
      return content;
  }
}

/** Ids of other resources a content names (globs excluded). */
export function refsOf(kind: Kind, content: Record<string, unknown>): string[] {
  const ids: string[] = [];
  mapRefs(kind, content, (id) => {
    if (kindOfId(id)) ids.push(id);
    return id;
  });
  return ids;
}

/** A resource as lines of text for people: fields first, code last (so a diff reads like one of files). */
export function renderContent(resource: Pick<Resource, 'content' | 'secrets'> | null, records?: RecordValue[]): string {
  if (!resource) return '';
  const lines: string[] = [];
  const code: Array<[string, string]> = [];
  const walk = (value: unknown, path: string) => {
    if (path.endsWith('code') && typeof value === 'string') {
      code.push([path, value]);
      return;
    }
    if (Array.isArray(value) && value.every((v) => v && typeof v === 'object' && 'name' in (v as object))) {
      for (const item of value as Array<Record<string, unknown>>) walk(item, `${path}[${String(item.name)}]`);
      return;
    }
    if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
      for (const key of Object.keys(value).sort()) walk((value as Record<string, unknown>)[key], path ? `${path}.${key}` : key);
      return;
    }
    lines.push(`${path}: ${JSON.stringify(value)}`);
  };
  walk(resource.content, '');
  for (const name of resource.secrets) lines.push(`secret ${name}: (set, not shown)`);
  if (records) for (const r of records) lines.push(`record ${JSON.stringify(r.key)}: ${JSON.stringify(r.value)}${r.expires_at ? ` (expires ${new Date(r.expires_at * 1000).toISOString()})` : ''}`);
  for (const [path, text] of code)
    lines.push(
      `${path}:`,
      ...text
        .replace(/\n$/, '')
        .split('\n')
        .map((l) => `  ${l}`),
    );
  return `${lines.join('\n')}\n`;
}
