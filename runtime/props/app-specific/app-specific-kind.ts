// Pipedream's app-specific types (`$.discord.channel`, `$.airtable.baseId[]`): a value picked from
// the app's data. Offline there is no app to pick from: the user gives the id, unchecked.
import type { PropKind } from '../shared/kind-interface';
import { enteredValue } from '../shared/prop-values';

const APP_SPECIFIC_TYPE = /^\$\.(?!interface\.|service\.)[a-z0-9_]+\.[A-Za-z0-9_.]+(\[\])?$/;

/** App-specific types, matched by their shape. */
export const appSpecificKind: PropKind = {
  name: 'app-specific',
  types: [],
  matches: (type) => APP_SPECIFIC_TYPE.test(type),
  typeNote: (type) => `${type} is an app-specific type of Pipedream's; offline its value is not checked (give it as ${type.endsWith('[]') ? 'an array of the ids' : 'the id'} the app expects)`,
  unchecked: true,
  labeled: true,
  checkValue: (prop, value) => enteredValue(prop, value, () => null),
};
