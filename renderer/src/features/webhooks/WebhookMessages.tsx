import { useEffect, useState } from 'react';
import type { MessageView } from '../../../../runtime/contract/webhook-api';
import { messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { TableHead } from '../../ui/TableHead';
import { useListKeys } from '../../ui/use-list-keys';
import { BulkRetry } from './BulkRetry';
import { MessageFiltersBar } from './MessageFiltersBar';
import { MessageRow } from './MessageRow';
import { describeFilters, noFilters, rangeProblem, retryStatus } from './message-filters';
import { resendMessage, useMessages } from './webhook-data';

/** A webhook's deliveries, newest first and refreshed live: filters (status, source, event, channel, time), attempts (j/k open the next or previous), resend, and "Retry failed…" over what the filters take. */
export function WebhookMessages({ webhookId, active, paused }: { webhookId: string; active: boolean; paused: boolean }) {
  const toast = useApp((s) => s.toast);
  const sources = useApp((s) => s.sources);
  const [filters, setFilters] = useState(noFilters);
  const [open, setOpen] = useState<string | null>(null);

  // Unreachable: the banner says so and the rows loaded before stay.
  const { messages, total, loaded, error, reload: load, more } = useMessages(webhookId, filters);
  // j/k open the next or previous message's attempts, as they select a row in the other lists.
  useListKeys(
    messages.length,
    messages.findIndex((m) => m.id === open),
    (index) => setOpen(messages[index]?.id ?? null),
  );
  useEffect(() => {
    if (error) toast(error, 'error');
  }, [error, toast]);

  const sourceName = (id: string) => sources.find((s) => s.id === id)?.name ?? id;
  const resend = async (m: MessageView) => {
    try {
      await resendMessage(webhookId, m.id);
      toast('Resending');
      void load();
    } catch (err) {
      toast(messageOf(err), 'error');
    }
  };
  // The retried messages leave "failed" at once: the list drops that status filter to show them going out.
  const retried = () => (retryStatus(filters) === filters.status ? setFilters({ ...filters, status: '' }) : void load());
  const shown = describeFilters(filters, sourceName);

  return (
    <section className="card" aria-labelledby="msgs-h">
      <h2 id="msgs-h">Deliveries</h2>
      <MessageFiltersBar filters={filters} live={loaded && !error} onChange={setFilters}>
        <span className="muted" data-testid="delivery-count" aria-live="polite">
          {loaded ? `${messages.length} of ${total}${shown ? ` matching ${shown}` : ''}` : ''}
        </span>
        <span className="grow" />
        <BulkRetry webhookId={webhookId} filters={filters} active={active} paused={paused} problem={rangeProblem(filters)} sourceName={sourceName} onRetried={retried} />
      </MessageFiltersBar>
      {!loaded ? (
        <p className="empty">Loading deliveries…</p>
      ) : messages.length === 0 ? (
        <p className="empty">{shown ? 'No deliveries match these filters.' : 'No deliveries yet.'}</p>
      ) : (
        <div className="table-scroll">
          <table className="table messages-table" aria-label="Messages">
            <TableHead columns={['Status', 'Event', 'Source', 'Attempts', 'Next attempt', 'Created']} />
            <tbody>
              {messages.map((m) => (
                <MessageRow key={m.id} m={m} webhookId={webhookId} open={open === m.id} active={active} onToggle={() => setOpen(open === m.id ? null : m.id)} onResend={() => void resend(m)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {loaded && messages.length < total && (
        <button type="button" className="small" onClick={more}>
          Load {Math.min(100, total - messages.length)} more ({total - messages.length} not shown)
        </button>
      )}
    </section>
  );
}
