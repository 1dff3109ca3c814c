// Where `secret: true` may be written: on string props, whose values are then sealed at rest
// (secret-values.ts).
import type { PropShape } from '../../contract/component-shape';
import type { Report } from '../shared/kind-interface';

/** Checks `secret` on a prop of any type. */
export function checkSecret(prop: PropShape, type: string, report: Report): void {
  // `secret: false` says nothing, and registry code writes it on any type.
  if (prop.secret !== undefined && prop.secret !== false && type !== 'string') {
    report('secret', 'secret is allowed only on string props; remove secret or change the type to string');
  }
}
