import { useState } from 'react';
import type { StepRunView, StepTestRequest } from '../../../../runtime/contract/workflow-api';
import { messageOf } from '../../api/client';
import { ErrorText } from '../../ui/ErrorText';
import { ActionRunResult } from '../sources/ActionRunResult';
import { type SampleEvent, testStep } from './workflow-data';

/**
 * "Test step": runs one saved step alone (`POST /v1/workflows/{id}/steps/{step}/test`) with the
 * form's current action and values, against a chosen trigger event; earlier steps give their own
 * tests' outputs, else the last run's. The output shows as an action test run's does.
 */
export function StepTest({ base, workflowId, stepName, samples, request, result, onResult }: { base: string; workflowId: string | null; stepName: string | null; samples: SampleEvent[]; request: () => StepTestRequest; result: StepRunView | null; onResult(r: StepRunView | null): void }) {
  const [chosen, setChosen] = useState('0');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!workflowId || !stepName) return <p className="muted small-note">Save the workflow to test this step alone.</p>;

  const test = async () => {
    setBusy(true);
    setError(null);
    try {
      const sample = samples[Number(chosen)];
      onResult(await testStep(workflowId, stepName, { ...request(), ...(sample ? { event: sample.event } : {}) }));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="step-test">
      <div className="row wrap">
        <label htmlFor={`${base}-test-event`}>Test with</label>
        <select id={`${base}-test-event`} value={chosen} onChange={(e) => setChosen(e.target.value)}>
          {samples.length === 0 && <option value="0">a manual run&apos;s event (no recent events)</option>}
          {samples.map((s, i) => (
            <option key={i} value={String(i)}>
              {s.label}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => void test()} disabled={busy}>
          {busy ? 'Testing…' : 'Test step'}
        </button>
      </div>
      <ErrorText text={error} />
      {result && <ActionRunResult result={result} title={`Test of ${stepName}`} idPrefix={`${base}-test`} onClear={() => onResult(null)} />}
    </div>
  );
}
