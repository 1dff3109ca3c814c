// `sql` props: a query for a database app (`auth: { app: "postgresql" }` names which), as
// Pipedream's SQL editor gives it: `{ query, params }`, which the app's `executeQueryAdapter`
// turns into its driver's arguments. Offline there is no editor (nor schema explorer): a user
// gives the query text, or the object with its prepared statement's parameters.
import type { PropKind } from '../shared/kind-interface';
import { isRecord } from '../shared/prop-shape';
import { isNonEmptyString, showValue } from '../shared/prop-values';

/** A query as a `sql` prop holds it, from the text or the object a user gives; null for neither. */
export function sqlValue(value: unknown): { query: string; params: unknown[] } | null {
  if (typeof value === 'string') return { query: value, params: [] };
  if (!isRecord(value) || typeof value.query !== 'string') return null;
  if (value.params !== undefined && !Array.isArray(value.params)) return null;
  return { query: value.query, params: (value.params as unknown[] | undefined) ?? [] };
}

/** `sql` props. */
export const sqlKind: PropKind = {
  name: 'sql',
  types: ['sql'],
  dynamic: true,
  checkDefinition(prop, _type, report) {
    const auth = prop.auth;
    if (auth !== undefined && !(isRecord(auth) && isNonEmptyString(auth.app))) {
      report('auth', `auth names the database app whose account runs the query, such as { app: "postgresql" }, not ${showValue(auth)}`);
    }
    if (prop.default !== undefined && sqlValue(prop.default) === null) {
      report('default', `a sql default is the query text, or { query: "…", params: [] }, not ${showValue(prop.default)}`);
    }
  },
  checkValue(prop, value) {
    if (value === undefined || value === null) return null;
    const sql = sqlValue(value);
    if (!sql) return { problem: `prop \`${prop.name}\` takes a SQL query: its text, or {"query": "SELECT …", "params": [...]} for a prepared statement` };
    return { value: sql };
  },
  askFor: () => 'a SQL query',
};
