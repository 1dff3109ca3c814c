// Settings → Connect's data (docs/connect.md): the local Connect project's credentials, and the
// `.env` lines @pipedream/sdk reads them from.
import { type ConnectCredentialsView, connectEnvironment } from '../../../../runtime/contract/connect-api';
import { usePoll } from '../../api/use-poll';
import { api } from '../../api/v1';

/** `GET /v1/settings/connect`, loaded once; `set` takes a rotation's answer. */
export function useConnectCredentials() {
  const read = usePoll('connect-credentials', () => api.getConnectCredentials());
  return { credentials: read.data, error: read.error, set: read.set };
}

/** A new client id and secret; the old ones stop working. */
export const rotateConnectCredentials = () => api.rotateConnectCredentials();

/** Lets the project's end users reach this machine, or stops them; answers the settings in force. */
export const setConnectLocalTargets = (allow: boolean) => api.setConnectLocalTargets(allow);

/** The PIPEDREAM_* variables the SDK reads, as `.env` lines (as `spout connect credentials --env` exports them); `secret` stands for the client secret. */
export function envLines(c: ConnectCredentialsView, secret = c.client_secret): string {
  return Object.entries(connectEnvironment(c, secret))
    .map(([name, value]) => `${name}=${value}`)
    .join('\n');
}
