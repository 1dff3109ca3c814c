import type { ConfigurableProp } from '../../contract/component-shape';
import { kindOf } from '../../props/prop-kinds';

/** What a form asks for, by prop kind: the fix a required-field message names. */
function askFor(prop: ConfigurableProp): string {
  return kindOf(prop.type)?.askFor?.(prop) ?? (Array.isArray(prop.options) ? 'choose a value' : 'enter a value');
}

/**
 * A prop value problem of the service (`prop \`x\` must be …; give it … in configured_props`)
 * phrased for the form field it belongs to: no prop name (the field shows where), no API paths or
 * routes, and the fix in the form's terms. The rule that found it stays the service's.
 */
export function formProblem(prop: ConfigurableProp, message: string): string {
  let text = message.replace(new RegExp(`^prop \`${prop.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`:? ?`), '');
  if (/is required|has no default schedule/.test(text)) return `Required: ${askFor(prop)}.`;
  text = text
    .replace(/^takes \{"authProvisionId": "apn_…"\}.*$/, 'choose a connected account')
    .replace(/^takes \{"dataStore": "ds_…"\}.*$/, 'choose a data store')
    .replace(/; create one with POST \/v1\/accounts$/, '; connect one with "Connect an account" or choose another')
    .replace(/; create one with POST \/v1\/data_stores$/, '; choose another store')
    .replace(/^takes a request such as (\{.*\}) with an absolute url$/, 'give a request with an absolute url, such as $1');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.?!]$/.test(text) ? '' : '.'}`;
}
