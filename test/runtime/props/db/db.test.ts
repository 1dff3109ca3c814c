// `$.service.db` props: a source's own state. Sources only, declared in props (not additionalProps);
// nothing is configured; `this.<prop>` is the host's copy of the db.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateComponent } from '../../../../runtime/components/validate';
import { bindDb, HostDb } from '../../../../runtime/props/db/db-binding';
import { bindingHost, configure, withProp } from '../../../helpers/component-checks';

describe('db props', () => {
  it('warns in an action, where it is ignored', () => {
    const { warnings } = validateComponent(withProp({ type: '$.service.db' }, { type: 'action' }));
    assert.deepEqual(
      warnings.map((w) => w.message),
      ['prop `p`: $.service.db props belong in sources; in an action it is ignored (remove it)'],
    );
  });

  it('keeps nothing configured', () => {
    assert.deepEqual(configure({ name: 'db', type: '$.service.db' }, { a: 1 }), { values: {}, problems: [] });
  });

  it("binds the host's db, whose writes are reported to the service", () => {
    const db = new HostDb();
    const host = { ...bindingHost(), db: db.api() };
    const bound = bindDb('db', { type: '$.service.db' }, host) as { get(k: string): unknown; set(k: string, v: unknown): void };
    bound.set('count', 2);
    assert.equal(bound.get('count'), 2);
    assert.deepEqual(db.takeWrites(), [['count', '2']]);
  });
});
