import { useState } from 'react';
import { messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { Modal } from '../../ui/ConfirmDialog';
import { describeFilters, type MessageFilters, retryStatus } from './message-filters';
import { planRetry, type RetryPlan, retryPlanned } from './webhook-data';

/** Where a bulk retry is: counted and asking, under way, or done (how many were queued). */
type Step = { at: 'confirm'; plan: RetryPlan } | { at: 'running'; plan: RetryPlan } | { at: 'done'; plan: RetryPlan; recovered: number };

const messages = (n: number) => `${n} ${n === 1 ? 'message' : 'messages'}`;

/**
 * "Retry failed…": counts the failed messages the list's filters take, asks with that count and the
 * filters, retries them all (`POST …/recover`, what `spout webhooks recover` calls) and says how
 * many were queued; `onRetried` then lets the list show them going out.
 */
export function BulkRetry(props: { webhookId: string; filters: MessageFilters; active: boolean; paused: boolean; problem: string | null; sourceName(id: string): string; onRetried(): void }) {
  const toast = useApp((s) => s.toast);
  const [counting, setCounting] = useState(false);
  const [step, setStep] = useState<Step | null>(null);
  const status = retryStatus(props.filters);
  const why = !props.active ? 'Enable the webhook to retry its messages' : !status ? 'Only failed or failing messages are retried: choose one of those statuses, or all' : props.problem;

  const ask = async () => {
    setCounting(true);
    try {
      const plan = await planRetry(props.webhookId, props.filters);
      if (plan) setStep({ at: 'confirm', plan });
    } catch (err) {
      toast(messageOf(err), 'error');
    } finally {
      setCounting(false);
    }
  };
  const retry = async (plan: RetryPlan) => {
    setStep({ at: 'running', plan });
    try {
      const recovered = await retryPlanned(props.webhookId, plan);
      setStep({ at: 'done', plan, recovered });
      props.onRetried();
    } catch (err) {
      toast(messageOf(err), 'error');
      setStep(null);
    }
  };

  const matching = step ? describeFilters(props.filters, props.sourceName, step.plan.query.status) : '';
  const count = step?.plan.count ?? 0;
  return (
    <>
      <button type="button" onClick={() => void ask()} disabled={why !== null || counting} title={why ?? `Retry every ${status} message the filters take`} aria-haspopup="dialog">
        {counting ? 'Counting…' : 'Retry failed…'}
      </button>
      {step && (
        <Modal labelledBy="retry-title" describedBy="retry-body" onClose={() => step.at !== 'running' && setStep(null)}>
          <form method="dialog" onSubmit={(e) => (e.preventDefault(), step.at === 'confirm' && step.plan.count > 0 ? void retry(step.plan) : setStep(null))}>
            <h2 id="retry-title">Retry {step.plan.query.status} messages</h2>
            {step.at === 'confirm' && count === 0 ? (
              <p id="retry-body">
                No {step.plan.query.status} messages match {matching}.
              </p>
            ) : step.at === 'confirm' ? (
              <>
                <p id="retry-body" data-testid="retry-question">
                  Retry {count} {step.plan.query.status} {count === 1 ? 'message' : 'messages'} matching {matching}?
                </p>
                <p className="muted small-note">Each gets one more attempt now{props.paused ? ', held until the webhook is resumed' : ''}. Messages that fail from now on are not included.</p>
              </>
            ) : (
              <p id="retry-body" role="status" data-testid="retry-result" aria-busy={step.at === 'running'}>
                {step.at === 'running' ? `Retrying ${messages(count)}…` : `Queued ${messages(step.recovered)} for one more attempt${props.paused ? ' (held while the webhook is paused)' : ''}. The list shows them as they go out.`}
              </p>
            )}
            <div className="row end">
              {step.at === 'confirm' && count > 0 ? (
                <>
                  <button type="button" onClick={() => setStep(null)}>
                    Cancel
                  </button>
                  <button type="submit" className="primary" data-autofocus>
                    Retry {messages(count)}
                  </button>
                </>
              ) : (
                <button type="submit" disabled={step.at === 'running'} data-autofocus>
                  Close
                </button>
              )}
            </div>
          </form>
        </Modal>
      )}
    </>
  );
}
