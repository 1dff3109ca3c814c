// An action's props as the input JSON Schema of an MCP tool (docs/mcp.md, "How props become a
// schema"): user inputs become typed properties; app props are bound to local accounts and left
// out; props whose values only Spout can give (folders, alerts, interfaces) are left out too.
import type { ConfigurableProp } from '../../contract/component-shape';
import type { JsonSchema } from '../../contract/mcp-api';

/** The helper tool that lists a prop's valid values (its async `options`). */
export const OPTIONS_TOOL = 'spout_prop_options';
/** The helper tool that answers the input schema after `reloadProps` props are set. */
export const RELOAD_TOOL = 'spout_reload_props';

/** Options listed by label in a description, at most. */
const LISTED_LABELS = 25;

/** A data store an agent may choose for a `data_store` prop. */
export interface StoreChoice {
  id: string;
  name: string;
}

/** A tool's input: its schema, and what the call must do beyond passing the arguments through. */
export interface ToolInput {
  schema: JsonSchema & { type: 'object'; properties: Record<string, JsonSchema> };
  /** App props: bound to the user's accounts, never given by the agent. */
  appProps: ConfigurableProp[];
  /** `data_store` props: the agent names a store by id; the call wraps it as `{dataStore: id}`. */
  storeProps: string[];
  /** Props whose valid values come from an `options` method (the options tool lists them). */
  remoteOptions: string[];
  /** A prop reloads the prop set (`reloadProps`): the call may name props the schema does not list. */
  dynamic: boolean;
}

/** Props Spout fills in itself or that only sources have: not in the schema, and refused as arguments. */
export function isBoundProp(prop: ConfigurableProp): boolean {
  return prop.type === 'app' || prop.type === 'dir' || prop.type === 'alert' || prop.type.startsWith('$.interface.') || prop.type.startsWith('$.service.');
}

/** A type of an app's own (`$.discord.channel`): ids of that app, given as they are. */
function isAppSpecific(type: string): boolean {
  return type.startsWith('$.') && !isBoundProp({ name: '', type });
}

function scalarSchema(type: string, prop: ConfigurableProp): JsonSchema | null {
  if (type === 'string' || isAppSpecific(type)) return { type: 'string' };
  if (type === 'boolean') return { type: 'boolean' };
  if (type === 'integer') return { type: 'integer', ...(prop.min !== undefined ? { minimum: prop.min } : {}), ...(prop.max !== undefined ? { maximum: prop.max } : {}) };
  if (type === 'object') return { type: 'object' };
  if (type === 'any') return {};
  return null;
}

/** The value of a static option and its label (`{label, value}` or a bare value). */
function optionOf(option: unknown): { value: unknown; label: string | null } {
  if (typeof option === 'object' && option !== null && 'value' in option) {
    const { label, value } = option as { label?: unknown; value: unknown };
    return { value, label: typeof label === 'string' ? label : null };
  }
  return { value: option, label: null };
}

/** The schema of one prop's value (before title and description), or null when the agent gives none. */
function valueSchema(prop: ConfigurableProp, stores: readonly StoreChoice[]): JsonSchema | null {
  if (prop.type === 'http_request') {
    return {
      type: 'object',
      properties: { url: { type: 'string' }, method: { type: 'string' }, headers: { type: 'object' }, params: { type: 'object' }, body: {} },
      required: ['url'],
    };
  }
  if (prop.type === 'data_store') return { type: 'string', ...(stores.length > 0 ? { enum: stores.map((s) => s.id) } : {}) };
  const array = prop.type.endsWith('[]');
  const item = scalarSchema(array ? prop.type.slice(0, -2) : prop.type, prop);
  if (!item) return null;
  if (Array.isArray(prop.options) && prop.options.length > 0) item.enum = prop.options.map((o) => optionOf(o).value);
  return array ? { type: 'array', items: item } : item;
}

/** The description of a prop: its own, then what an agent must know to give a valid value. */
function describe(prop: ConfigurableProp, tool: string, stores: readonly StoreChoice[]): string {
  const parts = typeof prop.description === 'string' && prop.description.trim() ? [prop.description.trim()] : [];
  const labelled = Array.isArray(prop.options) ? prop.options.map(optionOf).filter((o) => o.label !== null && o.label !== String(o.value)) : [];
  if (labelled.length > 0) {
    const listed = labelled.slice(0, LISTED_LABELS).map((o) => `${JSON.stringify(o.value)} (${o.label})`);
    parts.push(`Values: ${listed.join(', ')}${labelled.length > LISTED_LABELS ? ', …' : ''}.`);
  }
  if (prop.type === 'data_store') {
    parts.push(stores.length > 0 ? `The id of a data store: ${stores.map((s) => `${s.id} (${s.name})`).join(', ')}.` : 'The id of a data store; none exists yet (the user creates them in Spout).');
  }
  if (isAppSpecific(prop.type)) parts.push(`An id of the ${prop.type.split('.')[1] ?? ''} app (${prop.type}).`);
  if (prop.hasOptionsMethod) {
    parts.push(`Valid values come from the ${OPTIONS_TOOL} tool: call it with {"tool": "${tool}", "prop": "${prop.name}"} (add the values chosen so far as configured_props). Give a value, not a label.`);
  }
  if (prop.withLabel === true) {
    parts.push('The action reads it with its label ({"label", "value"}): give the value, which is labelled by its option (else by its own text), or {"label": "…", "value": …}.');
  }
  if (prop.reloadProps) {
    parts.push(`Setting this prop changes which other props the tool takes: call ${RELOAD_TOOL} with {"tool": "${tool}", "configured_props": {…}} for the complete input schema.`);
  }
  return parts.join('\n\n');
}

/** The input schema of an action's props; `tool` is the tool's name (the hints name it). */
export function toolInput(props: readonly ConfigurableProp[], tool: string, stores: readonly StoreChoice[]): ToolInput {
  const input: ToolInput = { schema: { type: 'object', properties: {} }, appProps: [], storeProps: [], remoteOptions: [], dynamic: false };
  const required: string[] = [];
  for (const prop of props) {
    if (prop.type === 'app') input.appProps.push(prop);
    // Hidden and disabled props keep their defaults, as a form would.
    if (isBoundProp(prop) || prop.hidden || prop.disabled) continue;
    const value = valueSchema(prop, stores);
    if (!value) continue;
    const title = typeof prop.label === 'string' && prop.label.trim() ? prop.label.trim() : undefined;
    const description = describe(prop, tool, stores);
    input.schema.properties[prop.name] = {
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
      ...value,
      ...(prop.default !== undefined ? { default: prop.default } : {}),
    };
    if (!prop.optional && prop.default === undefined) required.push(prop.name);
    if (prop.type === 'data_store') input.storeProps.push(prop.name);
    if (prop.hasOptionsMethod) input.remoteOptions.push(prop.name);
    if (prop.reloadProps) input.dynamic = true;
  }
  if (required.length > 0) input.schema.required = required;
  // Props a reload adds are not listed: the call takes them, and the run checks every value.
  input.schema.additionalProperties = input.dynamic;
  return input;
}
