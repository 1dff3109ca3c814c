// `http_request` props: a request the user builds, sent by `this.<prop>.execute()`. The spec allows
// them in actions only; registry sources use them too, and they work there the same way: a warning.
import type { PropKind } from '../shared/kind-interface';
import { isRecord } from '../shared/prop-shape';
import { isNonEmptyString, showValue } from '../shared/prop-values';

/** `http_request` props: the default is the request, which the user may replace. */
export const httpRequestKind: PropKind = {
  name: 'http-request',
  types: ['http_request'],
  onlyIn: 'action',
  elsewhere: 'Spout runs it as in an action (this.<prop>.execute()), but the spec does not promise that: move the call into an action, or make it with axios',
  dynamic: true,
  defaultIsConfig: true,
  checkDefinition(prop, _type, report) {
    const value = prop.default;
    if (value === undefined) return;
    // The registry's HTTP actions default to `{ method: "GET" }`: the url is configured when the action is used.
    const ok = isRecord(value) && (value.method === undefined || isNonEmptyString(value.method)) && (value.url === undefined || typeof value.url === 'string');
    if (!ok) report('default', `an http_request default must be an object such as { method: "GET", url: "https://…" } (url may be left to configure), not ${showValue(value)}`);
  },
  checkValue(prop, value) {
    // The request itself (url, method, headers, params, body, auth), replacing the prop's default.
    if (value === undefined || value === null) return null;
    const url = typeof value === 'object' ? (value as { url?: unknown }).url : undefined;
    if (typeof url !== 'string' || !URL.canParse(url)) return { problem: `prop \`${prop.name}\` takes a request such as {"method": "GET", "url": "https://…"} with an absolute url` };
    return { value };
  },
};
