// `$.interface.http` props: the source's HTTP endpoint; every request to it runs the source.
import type { PropKind } from '../shared/kind-interface';

/** `$.interface.http` props. */
export const httpInterfaceKind: PropKind = {
  name: 'http-interface',
  types: ['$.interface.http'],
  onlyIn: 'source',
  dynamic: true,
};
