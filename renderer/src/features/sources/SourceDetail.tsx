import { useEffect, useState } from 'react';
import { messageOf, ServiceUnreachable } from '../../api/client';
import { useRoute } from '../../app/router';
import { useApp } from '../../app/store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { CopyButton } from '../../ui/CopyButton';
import { Link } from '../../ui/Link';
import { LoadState } from '../../ui/LoadState';
import { ActiveBadge, ResourceHeader } from '../../ui/ResourceHeader';
import { useMediaQuery } from '../../ui/use-media-query';
import { ActivityView } from '../activity/ActivityView';
import { EventInspector } from '../events/EventInspector';
import { LogView } from '../logs/LogView';
import { NetworkView } from '../network/NetworkView';
import { endpointOf } from '../props/prop-values';
import { dropDraft, type Origin, useUnsaved } from './editor-store';
import { HOST_TITLES } from './host-state';
import { RunRequestDialog, ranMessage } from './RunRequestDialog';
import { SourceEditor } from './SourceEditor';
import { deleteSource, runSource, updateSource, useSource } from './source-data';
import { useSplitView, WIDE } from './split-view';

/** A deployed source's editor starts from the code the service has (loaded by the editor). */
const EDIT: Origin = { kind: 'code', code: '', filename: 'component.mjs' };

const TABS = [
  { id: 'configure', label: 'Configure' },
  { id: 'activity', label: 'Activity' },
  { id: 'logs', label: 'Logs' },
  { id: 'events', label: 'Events' },
  { id: 'network', label: 'Network' },
];

/** One source: run now (an HTTP source's sends a request it shows first), activate/deactivate, delete; tabs for its configuration, runs, logs, events and network mode (`item`: the run, event or cassette entry selected). */
export function SourceDetail({ id, tab, item }: { id: string; tab: string; item: string | null }) {
  const navigate = useRoute((s) => s.navigate);
  const { sources, toast } = useApp();
  const listed = sources.find((s) => s.id === id || s.name_slug === id);
  const read = useSource(id);
  const { missing, set: setSource } = read;
  const { on: splitOn, toggle: toggleSplit } = useSplitView();
  const wide = useMediaQuery(WIDE);
  const besideEditor = splitOn && wide && (tab === 'activity' || tab === 'logs' || tab === 'events');
  const unsaved = useUnsaved((u) => u.keys.has(`source:${read.source?.id ?? id}`));
  const source = read.source ?? listed ?? null;
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [requesting, setRequesting] = useState(false);

  // A link followed from the run-now dialog (an emitted event, the run) leaves it behind.
  useEffect(() => setRequesting(false), [tab, item]);

  // The list is refreshed in the background; keep this view in step with it when it is newer.
  useEffect(() => {
    if (listed && source && (listed.version > source.version || (listed.version === source.version && listed.updated_at > source.updated_at))) setSource(listed);
  }, [listed, source]);

  if (missing || !source) return <LoadState error={missing} />;
  const endpoint = endpointOf(source);

  const act = async (what: string, fn: () => Promise<void>) => {
    setBusy(what);
    try {
      await fn();
    } catch (err) {
      // The banner says the service is down; the button says what did not happen.
      toast(err instanceof ServiceUnreachable ? `${what === 'run' ? 'Run now' : what === 'toggle' ? 'The change' : 'Delete'} was not sent: the service is not answering.` : messageOf(err), 'error');
    } finally {
      setBusy(null);
    }
  };
  // An HTTP source's Run now sends a request (one with a timer too runs the timer, and offers the request beside it).
  const hasTimer = Object.keys(source.timers ?? {}).length > 0;
  const run = () =>
    endpoint && !hasTimer
      ? setRequesting(true)
      : act('run', async () => {
          const { text, kind } = ranMessage(await runSource(source.id));
          toast(text, kind);
        });
  const toggle = () =>
    act('toggle', async () => {
      const s = await updateSource(source.id, { active: !source.active });
      setSource(s);
      toast(s.active ? 'Activated' : 'Deactivated');
    });
  const remove = () =>
    act('delete', async () => {
      setConfirm(false);
      await deleteSource(source.id);
      dropDraft(source.id);
      toast(`Deleted ${source.name}`);
      navigate('/sources');
    });

  const base = `/sources/${encodeURIComponent(source.id)}`;
  return (
    <div className="source-detail">
      <ResourceHeader
        titleClass="head-title"
        title={
          // A long name is cut with an ellipsis so the buttons keep the title's row; the title attribute shows it whole.
          <span className="source-title" title={source.name}>
            {source.name}
          </span>
        }
        badge={<ActiveBadge active={source.active} />}
        id={source.id}
        facts={
          <>
            {' '}
            ·{' '}
            <span data-testid="header-component">
              component <code>{source.component_key ?? source.component_id}</code>
            </span>{' '}
            ·{' '}
            <span data-testid="header-host-state" title={HOST_TITLES[source.host]}>
              host {source.host}
            </span>
            {source.external_user_id && (
              <>
                {' · '}
                <span data-testid="header-external-user">
                  Connect trigger of external user <code>{source.external_user_id}</code>
                </span>
              </>
            )}
            {endpoint && (
              <>
                {' · '}
                <code data-testid="header-endpoint">{endpoint}</code> <CopyButton text={endpoint} label="Copy URL" />
              </>
            )}
          </>
        }
        actionsLabel="Source actions"
        actions={
          <>
            <button type="button" onClick={() => void run()} disabled={busy !== null} aria-haspopup={endpoint && !hasTimer ? 'dialog' : undefined}>
              {busy === 'run' ? 'Running…' : 'Run now'}
            </button>
            {endpoint && hasTimer && (
              <button type="button" onClick={() => setRequesting(true)} disabled={busy !== null} aria-haspopup="dialog">
                Send request…
              </button>
            )}
            <button type="button" onClick={() => void toggle()} disabled={busy !== null}>
              {source.active ? 'Deactivate' : 'Activate'}
            </button>
            {/* Apart from the harmless buttons, at the end. */}
            <button type="button" className="danger-outline separated" onClick={() => setConfirm(true)} disabled={busy !== null}>
              Delete
            </button>
          </>
        }
      />
      <nav className="tabs" aria-label="Source views">
        {TABS.map((t) => (
          <Link key={t.id} to={t.id === 'configure' ? base : `${base}/${t.id}`} aria-current={tab === t.id ? 'page' : undefined} className={tab === t.id ? 'tab current' : 'tab'}>
            {t.label}
          </Link>
        ))}
        <span className="grow" />
        {/* Wide screens only (styles.css): the editor beside Activity, Logs or Events. */}
        <button type="button" className="small split-toggle" aria-pressed={splitOn} onClick={toggleSplit} title="Show the code editor beside Activity, Logs and Events">
          Editor beside
        </button>
      </nav>
      <div className={besideEditor ? 'tab-body split-editor' : 'tab-body'}>
        {besideEditor && (
          <div className="beside-editor" role="region" aria-label="Code beside">
            <SourceEditor key={source.id} source={source} origin={EDIT} />
          </div>
        )}
        <div className="tab-main">
          {tab === 'activity' ? (
            <ActivityView key={source.id} source={source} selectedId={item} />
          ) : tab === 'logs' ? (
            <LogView sourceId={source.id} />
          ) : tab === 'events' ? (
            <EventInspector key={source.id} source={source} selectedId={item} />
          ) : tab === 'network' ? (
            <NetworkView key={source.id} source={source} selected={item} onSource={setSource} />
          ) : (
            <SourceEditor key={source.id} source={source} origin={EDIT} />
          )}
        </div>
      </div>
      {requesting && <RunRequestDialog source={source} onClose={() => setRequesting(false)} />}
      {confirm && (
        <ConfirmDialog
          title={`Delete ${source.name}?`}
          body={`Its deactivate hook runs, its endpoint stops answering, and its events, logs and subscriptions go with it.${unsaved ? ' Its unsaved changes in the editor are dropped too.' : ''}`}
          confirmLabel="Delete source"
          onConfirm={() => void remove()}
          onCancel={() => setConfirm(false)}
        />
      )}
    </div>
  );
}
