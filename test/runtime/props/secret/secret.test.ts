// Secret props: `secret` only on string props (checked when the component is saved); their values
// sealed at rest, opened for the component host only, masked in responses.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import { MASK, maskSecrets, openSecrets, sealSecrets } from '../../../../runtime/props/secret/secret-values';
import { SecretBox } from '../../../../runtime/store/secrets';
import { assertOnlyProblem, assertValid, withProp } from '../../../helpers/component-checks';

describe('secret props: definition', () => {
  it('allows secret only on string props', () => {
    assertValid(withProp({ type: 'string', secret: true }));
    assertOnlyProblem(withProp({ type: 'integer', secret: true }), 'props.p.secret', /^prop `p`: secret is allowed only on string props; remove secret or change the type to string$/);
  });
  it('lets registry code write secret: false on any type', () => {
    assertValid(withProp({ type: 'integer', secret: false }));
  });
});

describe('secret props: values', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-secret-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const box = SecretBox.open(dir);
  const props: ConfigurableProp[] = [
    { name: 'token', type: 'string', secret: true },
    { name: 'limit', type: 'integer' },
  ];

  it('seals secret values only, and opens them again for the host', () => {
    const sealed = sealSecrets(props, { token: 's3cret', limit: 5 }, box);
    assert.equal(sealed.limit, 5);
    assert.notEqual(sealed.token, 's3cret');
    assert.ok(!JSON.stringify(sealed).includes('s3cret'));
    assert.deepEqual(openSecrets(props, sealed, box), { token: 's3cret', limit: 5 });
  });

  it('masks secret values in responses, and keeps the stored one when the mask comes back', () => {
    const sealed = sealSecrets(props, { token: 's3cret', limit: 5 }, box);
    assert.deepEqual(maskSecrets(props, sealed), { token: MASK, limit: 5 });
    const updated = sealSecrets(props, { token: MASK, limit: 6 }, box, sealed);
    assert.equal(updated.token, sealed.token);
    assert.deepEqual(openSecrets(props, updated, box), { token: 's3cret', limit: 6 });
  });
});
