/** A problem found in a component definition or its code, with where it is. */
export interface ComponentProblem {
  path: string;
  message: string;
}

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
  /** Values are kept with the label they were chosen by: `{label, value}` (docs/runtime.md). */
  withLabel?: boolean;
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
  /** The component's `sampleEmit` as JSON text (registry components import it from `test-event.mjs`). */
  sampleEvent?: string;
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
  dedupe: 'unique' | 'greatest' | 'last' | null;
  configurable_props: ConfigurableProp[];
  /** Rules of the spec or the registry it does not follow; it loads and runs anyway. */
  warnings: ComponentProblem[];
}
