// `http_request` props (actions; a warning in sources): a default request (checked when the component is saved) that a
// configured one replaces; `this.<prop>` is the request with `execute()`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import { bindHttpRequest } from '../../../../runtime/props/http-request/http-request-binding';
import { assertOnlyProblem, assertOnlyWarning, assertValid, bindingHost, configure, withProp } from '../../../helpers/component-checks';

describe('http_request props: definition', () => {
  it('accepts http_request props in actions, and in sources (the registry uses them there) with the spec warning (issue 45)', () => {
    assertValid(withProp({ type: 'http_request' }, { type: 'action' }));
    assertOnlyWarning(withProp({ type: 'http_request' }), 'props.p.type', /^prop `p`: http_request props belong in actions; in a source Spout runs it as in an action .* move the call into an action/);
  });

  it('accepts an http_request default without a url (configured when used), as the registry writes them', () => {
    assertValid(withProp({ type: 'http_request', default: { method: 'GET' } }, { type: 'action' }));
    assertValid(withProp({ type: 'http_request', default: { url: 'https://example.com' } }, { type: 'action' }));
    assertOnlyProblem(withProp({ type: 'http_request', default: 'GET' }, { type: 'action' }), 'props.p.default', /^prop `p`: an http_request default must be an object such as \{ method: "GET", url: "https:\/\/…" \}/);
    assertOnlyProblem(withProp({ type: 'http_request', default: { method: '' } }, { type: 'action' }), 'props.p.default', /http_request default must be an object/);
  });
});

describe('http_request props: configured value and binding', () => {
  const request: ConfigurableProp = { name: 'req', type: 'http_request', default: { method: 'GET' } };

  it('keeps a configured request with an absolute url as given', () => {
    const value = { method: 'POST', url: 'https://example.com/hook', headers: [{ name: 'x-a', value: '1' }] };
    assert.deepEqual(configure(request, value), { values: { req: value }, problems: [] });
    assert.deepEqual(configure(request), { values: {}, problems: [] });
  });

  it('rejects a request without an absolute url', () => {
    for (const value of [{ method: 'GET', url: '/relative' }, { method: 'GET' }, 'https://example.com']) {
      assert.deepEqual(configure(request, value).problems, [{ path: 'configured_props.req', message: 'prop `req` takes a request such as {"method": "GET", "url": "https://…"} with an absolute url' }]);
    }
  });

  it('binds the configured request, else the default one, with execute()', () => {
    const configured = bindHttpRequest('req', request, bindingHost({ props: { req: { method: 'PUT', url: 'https://example.com' } } })) as Record<string, unknown>;
    assert.equal(configured.method, 'PUT');
    assert.equal(configured.url, 'https://example.com');
    assert.equal(typeof configured.execute, 'function');
    assert.equal((bindHttpRequest('req', request, bindingHost()) as Record<string, unknown>).method, 'GET');
  });
});
