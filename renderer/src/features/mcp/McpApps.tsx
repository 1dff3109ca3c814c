import { type FormEvent, useEffect, useState } from 'react';
import type { McpAccountBinding, McpSettings, McpToolView } from '../../../../runtime/contract/mcp-api';
import { messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { AccountPicker } from '../settings/AccountPicker';
import { appsMatching, type Change, registryActionCount } from './mcp-data';

/**
 * Runs a settings change, saying what it did (or why it failed); answers whether it was saved.
 * Never dropped: a change made while another is on its way is saved after it (useMcp's queue), so
 * controls stay enabled and keyboard focus stays where it was.
 */
export function useSave(change: Change) {
  const toast = useApp((s) => s.toast);
  return async (next: Parameters<Change>[0], done: string) => {
    try {
      await change(next);
      toast(done);
      return true;
    } catch (err) {
      toast(messageOf(err), 'error');
      return false;
    }
  };
}

/** The registry apps whose actions are tools (`registry_apps`): each with its tools and a Remove button, and a field to add one. */
export function McpRegistryApps({ settings, tools, change }: { settings: McpSettings; tools: McpToolView[] | null; change: Change }) {
  const save = useSave(change);
  const [app, setApp] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [suggestions, setSuggestions] = useState<Array<{ app: string; actions: number }>>([]);

  // Suggestions from the registry as the user types (the service searches; 250 ms after the last key).
  useEffect(() => {
    const text = app.trim();
    if (!text) return setSuggestions([]);
    let cancelled = false;
    const timer = setTimeout(() => {
      appsMatching(text).then(
        (found) => !cancelled && setSuggestions(found.filter((f) => !settings.registry_apps.includes(f.app))),
        () => !cancelled && setSuggestions([]),
      );
    }, 250);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [app, settings.registry_apps]);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const slug = app.trim();
    if (!slug) return setProblem('Give an app, as its registry folder is named (http, helper_functions, …).');
    if (settings.registry_apps.includes(slug)) return setProblem(`${slug} is chosen already.`);
    try {
      if ((await registryActionCount(slug)) === 0) return setProblem(`The registry has no actions in app “${slug}”: New action → Browse lists its components.`);
    } catch (err) {
      return setProblem(messageOf(err));
    }
    if (await save((saved) => ({ registry_apps: saved.registry_apps.includes(slug) ? saved.registry_apps : [...saved.registry_apps, slug] }), `${slug}: its registry actions are tools`)) {
      setApp('');
      setProblem(null);
    }
  };
  const remove = (slug: string) => void save((saved) => ({ registry_apps: saved.registry_apps.filter((a) => a !== slug) }), `${slug}: its registry actions are no longer tools`);

  return (
    <section className="card" aria-labelledby="mcp-apps-h">
      <h2 id="mcp-apps-h">Registry apps</h2>
      <p className="muted">
        The actions of these apps in the local registry (bundled components and <code>--registry</code> folders) are tools too. A registry action is saved on its first call. <code>spout mcp --app APP</code> chooses other apps for one session.
      </p>
      {settings.registry_apps.length === 0 ? (
        <p className="empty">No registry apps chosen.</p>
      ) : (
        <ul className="plain" aria-label="Registry apps exposed">
          {settings.registry_apps.map((slug) => {
            const count = tools?.filter((t) => t.origin === 'registry' && t.app === slug).length;
            return (
              <li key={slug} className="row">
                <span>
                  <code>{slug}</code> {count !== undefined && <span className="muted">· {count === 1 ? '1 tool' : `${count} tools`}</span>}
                </span>
                <button type="button" className="small" onClick={() => remove(slug)}>
                  Remove<span className="sr-only"> {slug}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <form className="row wrap" onSubmit={(e) => void add(e)} aria-label="Add a registry app" noValidate>
        <label htmlFor="mcp-app">App</label>
        <input id="mcp-app" className="mono" list="mcp-app-suggestions" placeholder="helper_functions" autoComplete="off" value={app} aria-invalid={problem ? true : undefined} aria-describedby={problem ? 'mcp-app-error' : undefined} onChange={(e) => (setApp(e.target.value), setProblem(null))} />
        <datalist id="mcp-app-suggestions">
          {suggestions.map((s) => (
            <option key={s.app} value={s.app} label={`${s.actions} matching action${s.actions === 1 ? '' : 's'}`} />
          ))}
        </datalist>
        <button type="submit">Add app</button>
      </form>
      {problem && (
        <p id="mcp-app-error" className="field-error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}

/** The apps whose accounts matter: those the tools' app props use, and those the settings name. */
function appsInUse(tools: McpToolView[], settings: McpSettings): Map<string, McpAccountBinding[]> {
  const apps = new Map<string, McpAccountBinding[]>();
  for (const t of tools) for (const b of t.accounts) apps.set(b.app, [...(apps.get(b.app) ?? []), b]);
  for (const app of Object.keys(settings.accounts)) if (!apps.has(app)) apps.set(app, []);
  return new Map([...apps].sort(([a], [b]) => a.localeCompare(b)));
}

/** What an app's binding comes to, from the tools that use it (they all agree: one choice per app). */
function bindingNote(bindings: McpAccountBinding[]): { text: string; warn: boolean } {
  const b = bindings[0];
  if (!b) return { text: 'No tool uses this app now.', warn: false };
  if (b.status === 'choose') return { text: b.problem ?? 'Choose an account: calls are refused until then.', warn: true };
  if (b.status === 'none') return { text: b.problem ?? 'No account: calls run with an empty $auth (enough for replay).', warn: b.problem !== null };
  return { text: `Calls use ${b.account_id}.`, warn: false };
}

/** The account bound to each app's props (`accounts`): chosen from the local accounts, never by the agent. */
export function McpAccounts({ settings, tools, change }: { settings: McpSettings; tools: McpToolView[] | null; change: Change }) {
  const save = useSave(change);
  const loadAccounts = useApp((s) => s.loadAccounts);
  // Accounts connected elsewhere (the CLI, Connect) show up as the tools are read again.
  useEffect(() => {
    void loadAccounts();
  }, [loadAccounts, tools]);
  const apps = tools ? appsInUse(tools, settings) : null;

  const choose = (app: string, id: string) => {
    const chosen = (saved: McpSettings) => {
      const { [app]: _old, ...rest } = saved.accounts;
      return { accounts: id ? { ...rest, [app]: id } : rest };
    };
    void save(chosen, id ? `${app}: tools use account ${id}` : `${app}: the account is chosen automatically`);
  };

  return (
    <section className="card" aria-labelledby="mcp-accounts-h">
      <h2 id="mcp-accounts-h">Accounts</h2>
      <p className="muted">
        App props are bound by Spout, never asked from the agent: to the account chosen here, else the app&apos;s only account. With several accounts and none chosen, calls are refused rather than guessed. <code>spout mcp --account APP=apn_…</code> overrides for one session.
      </p>
      {!apps ? (
        <p className="empty">Loading…</p>
      ) : apps.size === 0 ? (
        <p className="empty">No tool has an app prop.</p>
      ) : (
        <div className="account-bindings">
          {[...apps].map(([app, bindings]) => {
            const note = bindingNote(bindings);
            const id = `mcp-account-${app}`;
            return (
              <div key={app} className="field">
                <label htmlFor={id}>
                  Account for <code>{app}</code>
                </label>
                <AccountPicker
                  id={id}
                  app={app}
                  value={settings.accounts[app] ?? ''}
                  none={(count) => (count === 1 ? 'Automatic: its only account' : count === 0 ? `Automatic: no ${app} account connected` : 'Automatic: refused until one is chosen')}
                  describedBy={`${id}-note`}
                  onChange={(accountId) => choose(app, accountId)}
                />
                <span id={`${id}-note`} className={note.warn ? 'warn-text small-note' : 'muted small-note'}>
                  {note.text}
                </span>
              </div>
            );
          })}
        </div>
      )}
    </section>
  );
}
