import type { ActionRunView, ConsoleLine, SendView, StepError } from '../../../../runtime/contract/action-api';
import { ConsoleLines } from '../../ui/ConsoleLines';
import { JsonTree } from '../../ui/JsonTree';

/** What one action run (a test run, or a workflow step) produced; the test-run-only parts are optional. */
export interface StepOutputData {
  exports: Record<string, unknown>;
  ret: unknown;
  logs: ConsoleLine[];
  error: StepError | null;
  exit: { reason: string | null } | null;
  response?: ActionRunView['response'];
  emitted?: unknown[];
  sends?: SendView[];
}

const sendResult = (s: SendView) => (!s.result ? 'recorded (not sent offline)' : 'status' in s.result ? `answered ${s.result.status}` : `failed: ${s.result.error}`);

/**
 * An action's output: `$summary`, the error with its stack, the `$.flow.exit` reason, the return
 * value and other exports as JSON trees, the console lines, and what `$.respond` and `$.send` sent.
 */
export function StepOutput({ output, headingLevel = 4 }: { output: StepOutputData; headingLevel?: 3 | 4 | 5 }) {
  const H = `h${headingLevel}` as 'h3' | 'h4' | 'h5';
  const { $summary: summary, ...exports } = output.exports;
  const exportNames = Object.keys(exports);
  return (
    <div className="step-output">
      {summary !== undefined && (
        <p className="step-summary" data-testid="step-summary">
          <span className="muted">$summary</span> {typeof summary === 'string' ? summary : JSON.stringify(summary)}
        </p>
      )}
      {output.error && (
        <div className="step-error" data-testid="step-error">
          <strong>
            {output.error.name}: {output.error.message}
          </strong>
          {output.error.stack && (
            <details>
              <summary>Stack</summary>
              <pre className="stack">{output.error.stack}</pre>
            </details>
          )}
        </div>
      )}
      {output.exit && (
        <p className="step-exit" data-testid="step-exit">
          Ended with <code>$.flow.exit</code>
          {output.exit.reason ? (
            <>
              : <strong>{output.exit.reason}</strong>
            </>
          ) : (
            ' (no reason given)'
          )}
        </p>
      )}
      <section className="output-part">
        <H>Return value</H>
        <div className="json-box" data-testid="return-value">
          {output.ret === undefined || output.ret === null ? <span className="muted">{output.error ? 'none (the step threw)' : 'null'}</span> : <JsonTree value={output.ret} />}
        </div>
      </section>
      {exportNames.length > 0 && (
        <section className="output-part">
          <H>Exports</H>
          <div className="json-box" data-testid="exports">
            {exportNames.map((name) => (
              <JsonTree key={name} name={name} value={exports[name]} />
            ))}
          </div>
        </section>
      )}
      <section className="output-part">
        <H>Console</H>
        <ConsoleLines lines={output.logs} testId="console" />
      </section>
      {output.response && (
        <section className="output-part">
          <H>
            <code>$.respond</code> answer
          </H>
          <div className="json-box" data-testid="respond">
            <span className={output.response.status < 400 ? 'badge active' : 'badge failed'}>{output.response.status}</span>
            {Object.keys(output.response.headers).length > 0 && (
              <pre>
                {Object.entries(output.response.headers)
                  .map(([k, v]) => `${k}: ${v}`)
                  .join('\n')}
              </pre>
            )}
            {output.response.body !== null && <pre>{output.response.body}</pre>}
          </div>
        </section>
      )}
      {output.sends && output.sends.length > 0 && (
        <section className="output-part">
          <H>
            <code>$.send</code>
          </H>
          <ul className="plain sends" data-testid="sends">
            {output.sends.map((s) => (
              <li key={s.id}>
                <div className="row">
                  <span className="badge">{s.kind}</span>
                  <span className="muted">{sendResult(s)}</span>
                </div>
                <JsonTree value={s.config} />
              </li>
            ))}
          </ul>
        </section>
      )}
      {output.emitted && output.emitted.length > 0 && (
        <section className="output-part">
          <H>
            <code>$.send.emit</code> events
          </H>
          <div className="json-box" data-testid="emitted">
            {output.emitted.map((e, i) => (
              <JsonTree key={i} name={String(i)} value={e} />
            ))}
          </div>
        </section>
      )}
    </div>
  );
}
