// `sql` props (database apps' "execute a query" actions): the query a user gives, as text or with
// a prepared statement's parameters, kept as `{ query, params }`, which the app's
// `executeQueryAdapter` reads (issue 21).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConfigurableProp } from '../../../../runtime/contract/component-shape';
import { assertOnlyProblem, assertValid, configure, withProp } from '../../../helpers/component-checks';

describe('sql props: definition', () => {
  it('accepts a sql prop naming its database app, in actions and in additionalProps', () => {
    assertValid(withProp({ type: 'sql', auth: { app: 'postgresql' }, label: 'SQL Query' }, { type: 'action' }));
    assertValid(withProp({ type: 'sql' }, { type: 'action' }));
  });

  it('refuses an auth that names no app, and a default that is no query', () => {
    assertOnlyProblem(withProp({ type: 'sql', auth: 'postgresql' }, { type: 'action' }), 'props.p.auth', /^prop `p`: auth names the database app whose account runs the query, such as \{ app: "postgresql" \}/);
    assertOnlyProblem(withProp({ type: 'sql', default: 42, optional: true }, { type: 'action' }), 'props.p.default', /a sql default is the query text, or \{ query: "…", params: \[\] \}/);
  });
});

describe('sql props: configured value', () => {
  const sql: ConfigurableProp = { name: 'sql', type: 'sql', auth: { app: 'postgresql' } };

  it('keeps the query text, or a prepared statement, as { query, params }', () => {
    assert.deepEqual(configure(sql, 'SELECT 1'), { values: { sql: { query: 'SELECT 1', params: [] } }, problems: [] });
    assert.deepEqual(configure(sql, { query: 'SELECT * FROM t WHERE id = $1', params: [7] }), { values: { sql: { query: 'SELECT * FROM t WHERE id = $1', params: [7] } }, problems: [] });
    assert.deepEqual(configure(sql, { query: 'SELECT 2' }), { values: { sql: { query: 'SELECT 2', params: [] } }, problems: [] });
  });

  it('refuses what is no query, naming both forms', () => {
    for (const value of [42, { params: [] }, { query: 'SELECT 1', params: 'x' }]) {
      assert.deepEqual(configure(sql, value).problems, [{ path: 'configured_props.sql', message: 'prop `sql` takes a SQL query: its text, or {"query": "SELECT …", "params": [...]} for a prepared statement' }]);
    }
  });
});
