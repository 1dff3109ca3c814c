// `$.service.db` props: a source's own key-value state, kept by the service (store/source-dbs.ts).
import type { PropKind } from '../shared/kind-interface';

/** `$.service.db` props. */
export const dbKind: PropKind = {
  name: 'db',
  types: ['$.service.db'],
  onlyIn: 'source',
};
