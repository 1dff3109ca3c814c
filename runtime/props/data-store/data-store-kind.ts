// `data_store` props: a key-value store of the user's (POST /v1/data_stores), shared by whatever
// is configured with it.
import type { PropKind } from '../shared/kind-interface';

/** `data_store` props, configured as `{"dataStore": "ds_…"}`. */
export const dataStoreKind: PropKind = {
  name: 'data-store',
  types: ['data_store'],
  dynamic: true,
  checkValue(prop, value, lookups) {
    if (value === undefined || value === null) {
      return prop.optional ? null : { problem: `prop \`${prop.name}\` is required; give it {"dataStore": "ds_…"} (POST /v1/data_stores creates a store)` };
    }
    const id = typeof value === 'object' ? (value as { dataStore?: unknown }).dataStore : undefined;
    if (typeof id !== 'string') return { problem: `prop \`${prop.name}\` takes {"dataStore": "ds_…"}, the id of a data store, not ${JSON.stringify(value)}` };
    if (!lookups.dataStoreExists(id)) return { problem: `prop \`${prop.name}\`: no data store ${id}; create one with POST /v1/data_stores` };
    return { value: { dataStore: id } };
  },
  askFor: () => 'choose a data store',
};
