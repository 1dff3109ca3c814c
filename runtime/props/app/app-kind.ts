// App props (`type: "app"`): the app a component talks to, configured with a connected account.
import type { PropKind } from '../shared/kind-interface';
import { isNonEmptyString } from '../shared/prop-values';
import { type AppPropValue, appPropProblem, noAccount } from './app-prop';

/** `app` props. */
export const appKind: PropKind = {
  name: 'app',
  types: ['app'],
  dynamic: true,
  checkDefinition(prop, _type, report) {
    if (!isNonEmptyString(prop.app)) report('app', 'app is required on app props; set it to the app\'s name slug, e.g. app: "github"');
  },
  checkValue(prop, value, lookups) {
    const problem = appPropProblem(prop, value, lookups.account);
    if (problem) return { problem };
    // Only the account's id is kept; without one the prop is used with an empty `$auth`.
    return noAccount(value) ? null : { value: { authProvisionId: (value as AppPropValue).authProvisionId } };
  },
  askFor: () => 'choose a connected account',
};
