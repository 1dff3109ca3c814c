// `$.interface.apphook` props: run the source on another app's events, which do not happen offline.
import type { PropKind } from '../shared/kind-interface';

/** `$.interface.apphook` props: accepted, with a warning. */
export const apphookKind: PropKind = {
  name: 'apphook',
  types: ['$.interface.apphook'],
  typeNote: (type) => `${type} props fire on another app's events, which do not happen offline; the source runs by timer, HTTP or "spout run" only`,
};
