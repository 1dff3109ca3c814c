// Worker side: how a component's props read, as written in its module.
import type { PropShape } from '../../contract/component-shape';

type AnyRecord = Record<string, unknown>;

/** A prop after `propDefinition` is merged in, with what the reference pointed at. */
export interface ResolvedProp {
  /** The prop as the component sees it: the app's definition, overridden by the prop's own fields. */
  def: AnyRecord;
  /** The referenced app object, when the prop uses `propDefinition`. */
  app?: AnyRecord;
  reference?: PropShape['propDefinition'];
}

/** A plain object (not null, not an array). */
export const isRecord = (v: unknown): v is AnyRecord => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Resolves shorthand (`db: "$.service.db"`) and `propDefinition: [app, name, inputValues]`. */
export function resolveProp(raw: unknown): ResolvedProp {
  if (typeof raw === 'string') return { def: { type: raw } };
  if (!isRecord(raw)) return { def: { type: '' } };
  const { propDefinition, ...own } = raw;
  if (!Array.isArray(propDefinition)) return { def: raw };
  const [app, name, inputValues] = propDefinition as unknown[];
  const appObject = isRecord(app) && typeof app.app === 'string' ? app : undefined;
  const definitions = appObject && isRecord(appObject.propDefinitions) ? appObject.propDefinitions : {};
  const inherited = typeof name === 'string' && isRecord(definitions[name]) ? definitions[name] : undefined;
  return {
    def: { ...(inherited ?? {}), ...own },
    app: appObject,
    reference: {
      app: appObject ? (appObject.app as string) : null,
      name,
      resolved: inherited !== undefined,
      hasInputValues: inputValues !== undefined,
    },
  };
}

function cloneable(value: unknown): boolean {
  try {
    structuredClone(value);
    return true;
  } catch {
    return false;
  }
}

const functionNames = (v: unknown) => (isRecord(v) ? Object.keys(v).filter((k) => typeof v[k] === 'function') : []);

/** The JSON-safe shape of a prop, with functions replaced by flags (see PropShape). */
export function propShape(raw: unknown): PropShape {
  const { def, reference } = resolveProp(raw);
  const shape: PropShape = { type: typeof def.type === 'string' ? def.type : '' };
  for (const [key, value] of Object.entries(def)) {
    if (key === 'type' || value === undefined) continue;
    if (typeof value === 'function') {
      if (key === 'options') shape.hasOptionsMethod = true;
      continue;
    }
    if (shape.type === 'app' && key === 'propDefinitions') {
      shape.propDefinitions = isRecord(value) ? Object.keys(value) : [];
      continue;
    }
    if (shape.type === 'app' && key === 'methods') {
      shape.methods = functionNames(value);
      continue;
    }
    if (cloneable(value)) shape[key] = value;
  }
  if (reference) shape.propDefinition = reference;
  return shape;
}
