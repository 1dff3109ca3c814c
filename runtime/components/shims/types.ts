// Spout's own `@pipedream/types`, bundled into TypeScript components in place of the package.
// The define* helpers return their argument; the type names are deliberately loose (`any`) so
// registry components type-check without Spout modelling Pipedream's full component types.

/** Any JSON value. */
export type JSONValue = any;

/** The `$` object an action's run receives. */
export type Pipedream = any;

/** The event an HTTP source's run receives. */
export type SourceHttpRunOptions = any;

/** The event a timer source's run receives. */
export type SourceTimerRunOptions = any;

/** The event any source's run receives. */
export type SourceRunOptions = any;

/** `this` inside a source's run, methods and hooks. */
export type SourceRunThis = any;

/** The argument an action's run receives (`{ $, steps }`). */
export type ActionRunOptions = any;

/** A user-input prop definition. */
export type UserProp = any;

/** The argument a prop's `options` method receives (`{ page, prevContext, … }`). */
export type OptionsMethodArgs = any;

/** What a prop's `options` method returns. */
export type PropOptions = any;

/** The metadata passed to `$emit`. */
export type EmitMetadata = any;

/** Declares an app; returns it unchanged, with `this` loosely typed in its methods. */
export function defineApp<T extends object>(app: T & ThisType<any>): T {
  return app;
}

/** Declares a source; returns it unchanged, with `this` loosely typed in its run, methods and hooks. */
export function defineSource<T extends object>(source: T & ThisType<any>): T {
  return source;
}

/** Declares an action; returns it unchanged, with `this` loosely typed in its run and methods. */
export function defineAction<T extends object>(action: T & ThisType<any>): T {
  return action;
}
