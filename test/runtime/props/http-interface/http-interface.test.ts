// `$.interface.http` props: the source's endpoint. Sources only; nothing is configured; `this.<prop>`
// is the endpoint's URL and `respond()`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateDynamicProps } from '../../../../runtime/components/validate';
import { bindHttpInterface } from '../../../../runtime/props/http-interface/http-interface-binding';
import { assertValid, bindingHost, configure, withProp } from '../../../helpers/component-checks';

describe('http interface props', () => {
  it('may be declared with customResponse, or returned by additionalProps', () => {
    assertValid(withProp({ type: '$.interface.http', customResponse: true }));
    assert.deepEqual(validateDynamicProps({ http: { type: '$.interface.http' } }, 'source'), { errors: [], warnings: [] });
  });

  it("keeps nothing configured: the endpoint is the service's", () => {
    assert.deepEqual(configure({ name: 'http', type: '$.interface.http' }, 'https://elsewhere'), { values: {}, problems: [] });
  });

  it('binds the endpoint URL and a respond() that answers through the host', () => {
    const host = bindingHost({ endpoints: { http: 'http://127.0.0.1:1/e/en_x' } });
    const bound = bindHttpInterface('http', { type: '$.interface.http' }, host) as { endpoint: string; respond(r: unknown): unknown };
    assert.equal(bound.endpoint, 'http://127.0.0.1:1/e/en_x');
    bound.respond({ status: 201 });
    assert.deepEqual(host.responses, [{ status: 201 }]);
  });
});
