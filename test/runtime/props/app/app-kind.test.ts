// App props: `app` names the app (checked when the component is saved); the configured value is a
// connected account, whose credentials become `this.<prop>.$auth`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import { appKind } from '../../../../runtime/props/app/app-kind';
import { bindApp } from '../../../../runtime/props/app/app-prop';
import { assertOnlyProblem, bindingHost, configure, withProp } from '../../../helpers/component-checks';

describe('app props: definition', () => {
  it('requires app on app props', () => {
    assertOnlyProblem(withProp({ type: 'app' }), 'props.p.app', /^prop `p`: app is required on app props; set it to the app's name slug/);
    assertOnlyProblem(withProp({ type: 'app', app: '' }), 'props.p.app', /app is required/);
  });
});

describe('app props: configured value and binding', () => {
  const github: ConfigurableProp = { name: 'github', type: 'app', app: 'github' };
  const accounts = { apn_gh: 'github', apn_sl: 'slack' };

  it('keeps only the id of a connected account of the app', () => {
    assert.deepEqual(configure(github, { authProvisionId: 'apn_gh', extra: 1 }, { accounts }), { values: { github: { authProvisionId: 'apn_gh' } }, problems: [] });
  });

  it('accepts no account (the component runs with an empty $auth) and keeps nothing', () => {
    assert.deepEqual(configure(github, undefined, { accounts }), { values: {}, problems: [] });
    assert.deepEqual(configure(github, null, { accounts }), { values: {}, problems: [] });
  });

  it('rejects a value that is not an account, an unknown account and one of another app', () => {
    const message = (value: unknown) => configure(github, value, { accounts }).problems.map((p) => p.message);
    assert.deepEqual(message('apn_gh'), ['prop `github` takes {"authProvisionId": "apn_…"}, the id of a connected account (POST /v1/accounts)']);
    assert.deepEqual(message({ authProvisionId: 'apn_none' }), ['prop `github`: no connected account apn_none; create one with POST /v1/accounts']);
    assert.deepEqual(message({ authProvisionId: 'apn_sl' }), ['prop `github`: account apn_sl is for app "slack", not "github"']);
    assert.equal(appKind.askFor?.(github), 'choose a connected account');
  });

  it("binds the app with its methods and the account's credentials as $auth", () => {
    const app = {
      type: 'app',
      app: 'github',
      propDefinitions: { repo: {} },
      methods: {
        owner(this: { $auth: { login: string } }) {
          return this.$auth.login;
        },
      },
    };
    const bound = bindApp('github', app, bindingHost({ auth: { github: { login: 'octo' } } })) as { app: string; owner(): string; propDefinitions?: unknown };
    assert.equal(bound.app, 'github');
    assert.equal(bound.owner(), 'octo');
    assert.equal(bound.propDefinitions, undefined);
    assert.deepEqual((bindApp('other', app, bindingHost()) as { $auth: unknown }).$auth, {});
  });

  it('binds its methods to it, so one passed on detached still sees $auth and its siblings (issue 21)', () => {
    const app = {
      type: 'app',
      app: 'github',
      methods: {
        base(this: { $auth: { host: string } }) {
          return `https://${this.$auth.host}`;
        },
        url(this: { base(): string }, path: string) {
          return this.base() + path;
        },
      },
    };
    const bound = bindApp('github', app, bindingHost({ auth: { github: { host: 'api.example' } } })) as { url(path: string): string };
    const { url } = bound;
    assert.equal(url('/a'), 'https://api.example/a');
    assert.deepEqual(['/b', '/c'].map(bound.url), ['https://api.example/b', 'https://api.example/c']);
  });
});
