import { ComponentError, type ComponentProblem } from './bundle';

/** The prop types of spec section 2.5 (array forms end in `[]`). */
export const PROP_TYPES = [
  'app', 'boolean', 'boolean[]', 'integer', 'integer[]', 'string', 'string[]', 'object', 'any',
  '$.interface.http', '$.interface.timer', '$.service.db', 'data_store', 'http_request', 'alert',
] as const;

/**
 * A prop as the sandbox reports it: its static fields as written (JSON-safe), with functions
 * replaced by flags. A prop using `propDefinition` is reported merged with the app's definition
 * (the prop's own fields win), as the component sees it at run time.
 */
export interface PropShape {
  /** As written; a shorthand prop (`db: "$.service.db"`) gives its string. '' when missing. */
  type: string;
  label?: string;
  description?: string;
  optional?: boolean;
  default?: unknown;
  secret?: boolean;
  min?: number;
  max?: number;
  /** Static options as written. */
  options?: unknown[];
  /** `options` is a method (async options). */
  hasOptionsMethod?: boolean;
  useQuery?: boolean;
  disabled?: boolean;
  hidden?: boolean;
  reloadProps?: boolean;
  customResponse?: boolean;
  alertType?: unknown;
  content?: unknown;
  /** For `app` props: the app's name slug. */
  app?: string;
  /** For `app` props: names of the app's `propDefinitions` and `methods`. */
  propDefinitions?: string[];
  methods?: string[];
  /** Present when the prop uses `propDefinition: [app, name, inputValues]`. */
  propDefinition?: {
    /** The referenced app object's `app` slug, or null if the first element is not an app object. */
    app: string | null;
    name: unknown;
    /** False when the app has no propDefinition of that name. */
    resolved: boolean;
    hasInputValues: boolean;
  };
  [extra: string]: unknown;
}

/** What the sandbox reports of a loaded component module (all JSON-safe). */
export interface ComponentDescription {
  name: unknown;
  key: unknown;
  version: unknown;
  type: unknown;
  description: unknown;
  dedupe: unknown;
  props: Record<string, PropShape>;
  /** Names of the functions in `hooks`. */
  hooks: string[];
  /** Names in `hooks` that are not functions. */
  badHooks: string[];
  /** Names of the functions in `methods`. */
  methods: string[];
  hasRun: boolean;
  hasAdditionalProps: boolean;
}

/** A prop as the API describes it (`configurable_props`). */
export interface ConfigurableProp extends PropShape {
  name: string;
}

/** A component definition that passed validation. */
export interface ValidComponent {
  name: string;
  key: string | null;
  version: string;
  type: 'source' | 'action';
  description: string | null;
  configurable_props: ConfigurableProp[];
}

/** Checks a component description and reports every problem at once. */
export function validateComponent(desc: ComponentDescription): ValidComponent {
  const problems: ComponentProblem[] = [];
  const str = (field: keyof ComponentDescription, required: boolean): string | null => {
    const value = desc[field];
    if (value === undefined || value === null) {
      if (required) problems.push({ path: field, message: `is required (add \`${field}: "…"\` to the exported object)` });
      return null;
    }
    if (typeof value !== 'string') {
      problems.push({ path: field, message: `must be a string, not ${typeof value}` });
      return null;
    }
    return value;
  };
  const name = str('name', true);
  const key = str('key', false);
  const version = str('version', true);
  const description = str('description', false);
  const type = str('type', false) ?? 'source';
  if (type !== 'source' && type !== 'action') problems.push({ path: 'type', message: `must be "source" or "action", not "${type}"` });
  if (!desc.hasRun) problems.push({ path: 'run', message: 'is required: export a `run(event)` method' });
  const known = new Set<string>(PROP_TYPES);
  for (const [propName, prop] of Object.entries(desc.props)) {
    if (!known.has(prop.type)) {
      problems.push({ path: `props.${propName}.type`, message: `"${String(prop.type)}" is not a prop type; use one of ${PROP_TYPES.join(', ')}` });
    }
  }
  if (problems.length > 0) throw new ComponentError(problems);
  return {
    name: name as string,
    key,
    version: version as string,
    type: type as 'source' | 'action',
    description,
    configurable_props: Object.entries(desc.props).map(([propName, prop]) => ({ name: propName, ...prop })),
  };
}
