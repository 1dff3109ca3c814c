// Component descriptions to validate and assertions on what validateComponent finds, configured
// values to check, and a component host's side of bindings: shared by the component checks
// (test/runtime/components) and each prop kind's (test/runtime/props/<kind>).
import assert from 'node:assert/strict';
import { validateComponent } from '../../runtime/components/validate';
import type { ComponentDescription, ComponentProblem, ConfigurableProp, PropShape } from '../../runtime/contract/component-shape';
import type { HostCall, SandboxContext } from '../../runtime/contract/host-protocol';
import { ComponentError } from '../../runtime/lib/error-kinds';
import { checkConfiguredProps } from '../../runtime/props/configured-props';
import type { BindingHost } from '../../runtime/props/shared/kind-interface';

/** A valid, minimal source description; tests override what they exercise. */
export function component(overrides: Partial<ComponentDescription> = {}): ComponentDescription {
  return {
    name: 'Test Component',
    key: undefined,
    version: '0.0.1',
    type: undefined,
    description: undefined,
    dedupe: undefined,
    props: {},
    hooks: [],
    badHooks: [],
    methods: [],
    hasRun: true,
    hasAdditionalProps: false,
    ...overrides,
  };
}

export function action(overrides: Partial<ComponentDescription> = {}): ComponentDescription {
  return component({ type: 'action', ...overrides });
}

/** The problems validateComponent throws, or [] when it accepts the description. */
export function problemsOf(desc: ComponentDescription): ComponentProblem[] {
  try {
    validateComponent(desc);
    return [];
  } catch (err) {
    assert.ok(err instanceof ComponentError, `expected a ComponentError, got ${String(err)}`);
    return err.problems;
  }
}

/** Asserts that exactly one problem is found, at `path`, with a message matching `message`. */
export function assertOnlyProblem(desc: ComponentDescription, path: string, message: RegExp): void {
  const problems = problemsOf(desc);
  assert.equal(problems.length, 1, `expected one problem, got ${JSON.stringify(problems)}`);
  assert.equal(problems[0]!.path, path);
  assert.match(problems[0]!.message, message);
}

export function assertValid(desc: ComponentDescription): void {
  assert.deepEqual(problemsOf(desc), []);
  assert.deepEqual(validateComponent(desc).warnings, []);
}

/** Asserts that the component loads (no errors) with exactly one warning, at `path`, matching `message`: a rule Pipedream tolerates. */
export function assertOnlyWarning(desc: ComponentDescription, path: string, message: RegExp): void {
  assert.deepEqual(problemsOf(desc), []);
  const { warnings } = validateComponent(desc);
  assert.equal(warnings.length, 1, `expected one warning, got ${JSON.stringify(warnings)}`);
  assert.equal(warnings[0]!.path, path);
  assert.match(warnings[0]!.message, message);
}

/** A component whose only prop is `prop`, named `p`. */
export function withProp(prop: PropShape, overrides: Partial<ComponentDescription> = {}): ComponentDescription {
  return component({ props: { p: prop }, ...overrides });
}

/** What checkConfiguredProps makes of `value` configured on `prop` alone (no value: nothing configured). */
export function configure(prop: ConfigurableProp, value?: unknown, lookups: { accounts?: Record<string, string>; dataStores?: string[] } = {}): { values: Record<string, unknown>; problems: ComponentProblem[] } {
  const app = (id: string) => (lookups.accounts?.[id] ? { app: lookups.accounts[id] } : undefined);
  return checkConfiguredProps([prop], value === undefined ? {} : { [prop.name]: value }, app, (id) => lookups.dataStores?.includes(id) ?? false);
}

/** A BindingHost as the component host gives one, with the parts a test sets; calls to the service are recorded. */
export function bindingHost(context: Partial<SandboxContext> = {}, answer: unknown = null): BindingHost & { calls: HostCall[]; responses: unknown[] } {
  const calls: HostCall[] = [];
  const responses: unknown[] = [];
  const entries = new Map<string, unknown>();
  return {
    context: { sourceId: 'dc_test', props: {}, endpoints: {}, auth: {}, dynamicProps: false, dataStores: [], network: 'live', dirs: {}, ...context },
    db: { get: (key) => entries.get(key), set: (key, value) => void entries.set(key, value) },
    respond: (response) => responses.push(response),
    call: async (request) => {
      calls.push(request);
      return answer;
    },
    calls,
    responses,
  };
}
