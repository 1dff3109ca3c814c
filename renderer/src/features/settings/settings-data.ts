// The Settings screen's data: how the instance runs, its API key, connected accounts.
import type { AccountInput } from '../../../../runtime/contract/component-api';
import type { SettingsPatch } from '../../../../runtime/contract/settings-api';
import { usePoll } from '../../api/use-poll';
import { api } from '../../api/v1';
import { useApp } from '../../app/store';

/** `GET /v1/settings`, loaded once; `reload` after a change (a rotated key's hint). */
export function useSettings() {
  const settings = usePoll('settings', () => api.getSettings());
  return { settings: settings.data, error: settings.error, reload: settings.reload, set: settings.set };
}

/** Saves settings (`PATCH /v1/settings`); answers the settings in force. */
export const saveSettings = (patch: SettingsPatch) => api.patchSettings(patch);

/** A new API key; the answer renews this browser's session cookie. */
export const rotateApiKey = () => api.rotateApiKey();

/** Connects an account; the app's account list is loaded again. */
export async function createAccount(body: AccountInput) {
  const created = await api.createAccount(body);
  void useApp.getState().loadAccounts();
  return created;
}

export async function deleteAccount(id: string): Promise<void> {
  await api.deleteAccount(id);
  void useApp.getState().loadAccounts();
}
