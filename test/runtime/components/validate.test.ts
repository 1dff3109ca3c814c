import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateComponent, validateDynamicProps } from '../../../runtime/components/validate';
import type { PropShape } from '../../../runtime/contract/component-shape';
import { ComponentError } from '../../../runtime/lib/error-kinds';
import { STATIC_VALUE_LIMIT } from '../../../runtime/props/shared/prop-values';
import { action, assertOnlyProblem, assertOnlyWarning, assertValid, component, problemsOf, withProp } from '../../helpers/component-checks';

const github: PropShape = { type: 'app', app: 'github', propDefinitions: ['repo'], methods: [] };

describe('validateComponent: component fields', () => {
  it('requires a non-empty string name', () => {
    assertOnlyProblem(component({ name: undefined }), 'name', /^name is required; add name: "/);
    assertOnlyProblem(component({ name: 42 }), 'name', /^name must be a string, not 42/);
    assertOnlyProblem(component({ name: '' }), 'name', /^name must not be empty/);
  });

  it('requires a string version', () => {
    assertOnlyProblem(component({ version: undefined }), 'version', /^version is required; add version: "0.0.1"/);
    assertOnlyProblem(component({ version: 1 }), 'version', /^version must be a string, not 1/);
  });

  it('accepts type source or action, defaulting to source', () => {
    assert.equal(validateComponent(component()).type, 'source');
    assert.equal(validateComponent(action()).type, 'action');
    assertOnlyProblem(component({ type: 'trigger' }), 'type', /^type must be "source" or "action", not "trigger"/);
  });

  it('requires key and description to be strings when present', () => {
    assertOnlyProblem(component({ key: 7 }), 'key', /^key must be a string, not 7/);
    assertOnlyProblem(component({ description: ['x'] }), 'description', /^description must be a string/);
    const valid = validateComponent(component({ key: 'my-key', description: 'Does things' }));
    assert.equal(valid.key, 'my-key');
    assert.equal(valid.description, 'Does things');
    const bare = validateComponent(component());
    assert.equal(bare.key, null);
    assert.equal(bare.description, null);
  });

  it('requires a run method in actions; a source without one emits its triggering event', () => {
    assertOnlyProblem(action({ hasRun: false }), 'run', /^run is required in an action; add an async run\(\{ steps, \$ \}\) method/);
    assertValid(component({ hasRun: false, props: { timer: { type: '$.interface.timer', default: { intervalSeconds: 60 } } } }));
  });
});

describe('validateComponent: keys and versions', () => {
  it('leaves key and version free-form when the key is not namespaced for the registry', () => {
    assertValid(component({ key: 'My_Source.v2', version: 'v1 beta' }));
    // `github-` is not a namespace unless the component has a github app prop.
    assertValid(component({ key: 'github-New_Thing', version: 'latest' }));
  });

  it('rejects an empty free-form key or one with whitespace', () => {
    assertOnlyProblem(component({ key: '' }), 'key', /^key must not be empty; remove key or set a unique one/);
    assertOnlyProblem(component({ key: 'my source' }), 'key', /^key "my source" must not contain whitespace; use hyphens instead, e\.g\. "my-source"/);
  });

  it('warns unless a lower-case slug follows the app prefix of a registry key', () => {
    const desc = component({ key: 'github-New_Issue', version: '0.1.0', props: { github } });
    assertOnlyWarning(desc, 'key', /^key "github-New_Issue" is namespaced for the registry \(it starts with app "github"\).*e\.g\. "github-new-issue"/);
    assertOnlyWarning(component({ key: 'github-new--issue', props: { github } }), 'key', /lower-case slug/);
  });

  it('accepts registry keys whose app slug has underscores, as registry components do', () => {
    const sheets: PropShape = { type: 'app', app: 'google_sheets' };
    assertValid(action({ key: 'google_sheets-add-row', version: '0.1.5', props: { sheets } }));
  });

  it('warns unless registry keys have semantic versions', () => {
    const desc = component({ key: 'github-new-issue', version: '1.0', props: { github } });
    assertOnlyWarning(desc, 'version', /^version "1\.0" should be semantic versioning \(major\.minor\.patch.*because key "github-new-issue" is namespaced/);
    assertOnlyWarning(component({ key: 'github-new-issue', version: '01.0.0', props: { github } }), 'version', /semantic versioning/);
    assertValid(component({ key: 'github-new-issue', version: '1.2.3-beta.1+build.5', props: { github } }));
  });
});

describe('validateComponent: hooks and dedupe', () => {
  it('warns about hooks on actions, which never run there', () => {
    assertValid(component({ hooks: ['deploy', 'activate', 'deactivate'] }));
    assertOnlyWarning(action({ hooks: ['deploy'] }), 'hooks', /^hooks belong in sources; an action's hooks never run/);
  });

  it('rejects hook names other than deploy, activate and deactivate', () => {
    assertOnlyProblem(component({ hooks: ['install'] }), 'hooks.install', /^hook `install` is not a hook; hooks are deploy, activate, deactivate \(move other functions to methods\)/);
  });

  it('requires every hook to be a function', () => {
    const problems = problemsOf(component({ hooks: ['deploy'], badHooks: ['activate', 'deactivate'] }));
    assert.deepEqual(
      problems.map((p) => p.path),
      ['hooks.activate', 'hooks.deactivate'],
    );
    assert.match(problems[0]!.message, /^hook `activate` must be a function, e\.g\. async activate\(\)/);
  });

  it('allows dedupe unique, greatest or last on sources; on an action it is ignored with a warning', () => {
    for (const dedupe of ['unique', 'greatest', 'last']) assertValid(component({ dedupe }));
    assertOnlyProblem(component({ dedupe: 'newest' }), 'dedupe', /^dedupe must be "unique", "greatest" or "last", not "newest"/);
    assertOnlyWarning(action({ dedupe: 'unique' }), 'dedupe', /^dedupe applies to sources; an action's dedupe is ignored/);
    assert.equal(validateComponent(action({ dedupe: 'unique' })).dedupe, null);
  });

  it("loads an action spreading a source's common module (dedupe, a db prop, hooks) with a warning for each", () => {
    const desc = action({ dedupe: 'unique', hooks: ['deploy'], props: { db: { type: '$.service.db' } } });
    assert.deepEqual(problemsOf(desc), []);
    assert.deepEqual(
      validateComponent(desc).warnings.map((w) => w.path),
      ['hooks', 'dedupe', 'props.db.type'],
    );
  });
});

describe('validateComponent: prop types', () => {
  it('requires a known type', () => {
    assertOnlyProblem(withProp({ type: '' }), 'props.p.type', /^prop `p`: type is required; set it to one of app, boolean/);
    assertOnlyProblem(withProp({ type: 'number' }), 'props.p.type', /^prop `p`: "number" is not a prop type; use one of app, boolean/);
    assertOnlyProblem(withProp({ type: 'String' }), 'props.p.type', /did you mean "string"\?/);
  });

  it('warns about interface and service props outside sources, where they are ignored', () => {
    for (const type of ['$.interface.http', '$.interface.timer', '$.service.db']) {
      assertValid(withProp({ type }));
      assertOnlyWarning(withProp({ type }, { type: 'action' }), 'props.p.type', /props belong in sources; in an action it is ignored/);
    }
  });

  it("accepts Pipedream's dir props, and warns about apphook and app-specific types it cannot check offline", () => {
    assertValid(withProp({ type: 'dir', accessMode: 'write', sync: true }));
    assertValid(withProp({ type: 'dir', accessMode: 'read', sync: true, optional: true }, { type: 'action' }));
    assertOnlyWarning(withProp({ type: '$.interface.apphook', appProp: 'github', eventNames: ['push'] }), 'props.p.type', /fire on another app's events, which do not happen offline/);
    assertOnlyWarning(withProp({ type: '$.discord.channel' }), 'props.p.type', /^prop `p`: \$\.discord\.channel is an app-specific type of Pipedream's; offline its value is not checked \(give it as the id/);
    assertOnlyWarning(withProp({ type: '$.discord.channel[]' }), 'props.p.type', /give it as an array of the ids/);
    assertOnlyProblem(withProp({ type: '$.interface.websocket' }), 'props.p.type', /is not a prop type/);
  });

  it('allows the other types in both kinds of component', () => {
    for (const type of ['boolean', 'integer', 'string', 'object', 'any', 'data_store']) {
      assertValid(withProp({ type }));
      assertValid(withProp({ type }, { type: 'action' }));
    }
  });
});

describe('validateComponent: prop properties', () => {
  it('warns about default on a required prop (the spec allows it only on optional ones; Pipedream prefills it)', () => {
    assertOnlyWarning(withProp({ type: 'string', default: 'hi' }), 'props.p.default', /^prop `p`: default is allowed only on optional props; it is used as the prefilled value: add optional: true or remove default$/);
    assertValid(withProp({ type: 'string', optional: true, default: 'hi' }));
  });

  it('allows default on required timer, http_request and alert props, where it is their configuration', () => {
    assertValid(withProp({ type: '$.interface.timer', default: { intervalSeconds: 60 } }));
    assertValid(withProp({ type: 'http_request', default: { method: 'GET', url: 'https://example.com' } }, { type: 'action' }));
    assertValid(withProp({ type: 'alert', alertType: 'info', content: 'Read me', default: 'x' }));
  });

  it('rejects a static default over the 64 KB limit', () => {
    const problems = problemsOf(withProp({ type: 'string', optional: true, default: 'x'.repeat(STATIC_VALUE_LIMIT) }));
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.path, 'props.p.default');
    assert.match(problems[0]!.message, /^prop `p`: default is 65538 bytes as JSON text, over the 65536-byte \(64 KB\) limit/);
  });
});

describe('validateComponent: options and propDefinition', () => {
  it('accepts static options of the item type or {label, value} objects', () => {
    assertValid(withProp({ type: 'string', options: ['a', { label: 'B', value: 'b' }] }));
    assertValid(withProp({ type: 'integer[]', options: [1, { label: 'Two', value: 2 }] }));
    // Issue 21: numeric labels are shown as text, as Pipedream does.
    assertValid(
      withProp({
        type: 'integer',
        options: [
          { label: 1, value: 1 },
          { label: 2, value: 2 },
        ],
      }),
    );
  });

  it('rejects static options of the wrong shape, naming the items', () => {
    assertOnlyProblem(withProp({ type: 'string', options: ['a', 1, { label: 'C' }, { label: 2, value: 'd' }] }), 'props.p.options', /^prop `p`: options 1, 2 must be a string or a \{ label, value \} object with a text \(or number\) label and a string value$/);
    assertOnlyProblem(withProp({ type: 'integer', options: ['1'] }), 'props.p.options', /^prop `p`: option 0 must be an integer/);
    assertOnlyProblem(withProp({ type: 'string', options: { a: 1 } as unknown as unknown[] }), 'props.p.options', /options must be an array or an async options method/);
  });

  it('requires an options method for useQuery', () => {
    assertOnlyProblem(withProp({ type: 'string', useQuery: true }), 'props.p.useQuery', /^prop `p`: useQuery needs an async options method; define options\(\{ query \}\) or remove useQuery$/);
    assertValid(withProp({ type: 'string', useQuery: true, hasOptionsMethod: true }));
  });

  it('reports an unresolved propDefinition by app and name, without a missing-type problem', () => {
    const prop: PropShape = { type: '', propDefinition: { app: 'github', name: 'repository', resolved: false, hasInputValues: false } };
    assertOnlyProblem(withProp(prop, { props: { github, p: prop } }), 'props.p.propDefinition', /^prop `p`: app "github" has no propDefinition "repository"; fix the name or add "repository" to the app's propDefinitions$/);
  });

  it('requires the first element of propDefinition to be an app object', () => {
    const prop: PropShape = { type: '', propDefinition: { app: null, name: 'repo', resolved: false, hasInputValues: false } };
    assertOnlyProblem(withProp(prop), 'props.p.propDefinition', /^prop `p`: the first element of propDefinition must be an app object/);
  });
});

describe('validateComponent: reporting', () => {
  it('reports every error and warning at once, each with its path', () => {
    const desc = component({
      name: undefined,
      version: 3,
      type: 'action',
      dedupe: 'unique',
      hooks: ['deploy'],
      hasRun: false,
      props: {
        limit: { type: 'string', min: 1 },
        http: { type: '$.interface.http' },
        token: { type: 'integer', secret: true, default: 5 },
      },
    });
    assert.throws(
      () => validateComponent(desc),
      (err: unknown) => {
        assert.ok(err instanceof ComponentError);
        assert.deepEqual(
          err.problems.map((p) => p.path),
          ['name', 'version', 'run', 'props.limit.min', 'props.token.secret'],
        );
        // Warnings travel with the errors, so a fix shows what else to tidy.
        assert.deepEqual(
          err.warnings.map((p) => p.path),
          ['hooks', 'dedupe', 'props.http.type', 'props.token.default'],
        );
        assert.match(err.message, /props\.limit\.min: prop `limit`: min is allowed only on integer and integer\[\] props/);
        return true;
      },
    );
  });

  it('accepts a typical source with http, db and string props', () => {
    const desc = component({
      name: 'New Requests',
      key: 'new-requests',
      version: '0.0.3',
      type: 'source',
      description: 'Emit each request',
      dedupe: 'unique',
      hooks: ['deploy', 'activate'],
      methods: ['_getCount'],
      props: {
        http: { type: '$.interface.http', customResponse: true },
        db: { type: '$.service.db' },
        greeting: { type: 'string', label: 'Greeting', optional: true, default: 'hello' },
        channel: { type: 'string', options: ['general', { label: 'Random', value: 'random' }] },
        apiKey: { type: 'string', secret: true },
      },
    });
    const valid = validateComponent(desc);
    assert.deepEqual(valid, {
      name: 'New Requests',
      key: 'new-requests',
      version: '0.0.3',
      type: 'source',
      description: 'Emit each request',
      dedupe: 'unique',
      configurable_props: [
        { name: 'http', type: '$.interface.http', customResponse: true },
        { name: 'db', type: '$.service.db' },
        { name: 'greeting', type: 'string', label: 'Greeting', optional: true, default: 'hello' },
        { name: 'channel', type: 'string', options: ['general', { label: 'Random', value: 'random' }] },
        { name: 'apiKey', type: 'string', secret: true },
      ],
      warnings: [],
    });
  });

  it('accepts a typical action with an app prop, a propDefinition prop and an http_request prop', () => {
    const desc = action({
      name: 'Create Issue',
      key: 'github-create-issue',
      version: '0.2.0',
      props: {
        github,
        repo: {
          type: 'string',
          label: 'Repository',
          hasOptionsMethod: true,
          useQuery: true,
          propDefinition: { app: 'github', name: 'repo', resolved: true, hasInputValues: false },
        },
        request: { type: 'http_request', label: 'Request', default: { method: 'POST', url: 'https://api.github.com/issues' } },
      },
    });
    const valid = validateComponent(desc);
    assert.equal(valid.type, 'action');
    assert.deepEqual(
      valid.configurable_props.map((p) => p.name),
      ['github', 'repo', 'request'],
    );
    assert.deepEqual(valid.configurable_props[1]!.propDefinition, { app: 'github', name: 'repo', resolved: true, hasInputValues: false });
  });
});

describe('validateDynamicProps', () => {
  it('accepts the allowed dynamic prop types', () => {
    const props: Record<string, PropShape> = {
      github,
      flag: { type: 'boolean[]' },
      count: { type: 'integer', min: 0 },
      name: { type: 'string' },
      extra: { type: 'object' },
      anything: { type: 'any' },
      http: { type: '$.interface.http' },
      timer: { type: '$.interface.timer', default: { cron: '*/5 * * * *' } },
      store: { type: 'data_store' },
    };
    assert.deepEqual(validateDynamicProps(props, 'source'), { errors: [], warnings: [] });
    assert.deepEqual(validateDynamicProps({ request: { type: 'http_request' } }, 'action'), { errors: [], warnings: [] });
  });

  it('accepts alerts, which registry code returns from additionalProps, and warns about $.service.db', () => {
    const found = validateDynamicProps({ db: { type: '$.service.db' }, note: { type: 'alert', alertType: 'info', content: 'Hi' } }, 'source');
    assert.deepEqual(found, {
      errors: [],
      warnings: [{ path: 'props.db.type', message: 'prop `db`: $.service.db props are not among the types additionalProps may return; declare the prop in props instead' }],
    });
  });

  it('applies the per-prop rules and the component type', () => {
    const found = validateDynamicProps({ limit: { type: 'string', max: 3 }, http: { type: '$.interface.http' }, label: { type: 'string', default: 'x' } }, 'action');
    assert.deepEqual(
      found.errors.map((p) => p.path),
      ['props.limit.max'],
    );
    assert.deepEqual(
      found.warnings.map((p) => p.path),
      ['props.http.type', 'props.label.default'],
    );
    assert.match(found.warnings[0]!.message, /^prop `http`: \$\.interface\.http props belong in sources/);
  });
});
