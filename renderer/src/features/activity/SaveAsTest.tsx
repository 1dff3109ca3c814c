import { useState } from 'react';
import type { RunTestView } from '../../../../runtime/contract/invocation-api';
import { messageOf } from '../../api/client';
import { useApp } from '../../app/store';
import { downloadFile } from '../../ui/download';
import { testOfRun } from './invocation-data';

/** Whether a run can become a test: a source's HTTP, timer, run-now or hook run (spout/testing replays those). */
export const canSaveAsTest = (trigger: string) => ['http', 'timer', 'run_now', 'hook'].includes(trigger);

/**
 * "Save as test": the service writes a test of the run (GET /v1/invocations/{id}/test); each of its
 * files is offered to download (one click each: browsers hold back downloads a page starts alone),
 * with where to put them and how to run them.
 */
export function SaveAsTest({ id }: { id: string }) {
  const { toast } = useApp();
  const [test, setTest] = useState<RunTestView | null>(null);
  const [writing, setWriting] = useState(false);
  const panel = `save-test-${id}`;

  const save = async () => {
    if (test) return setTest(null);
    setWriting(true);
    try {
      setTest(await testOfRun(id));
    } catch (err) {
      toast(messageOf(err), 'error');
    } finally {
      setWriting(false);
    }
  };

  return (
    <>
      <button type="button" className="small" disabled={writing} aria-expanded={test !== null} aria-controls={panel} onClick={() => void save()}>
        {writing ? 'Writing the test…' : 'Save as test'}
      </button>
      {test && (
        <section id={panel} className="save-test" aria-label="Test of this run" data-testid="save-as-test">
          <p>
            Put {test.files.length === 1 ? 'this file' : 'these files'} beside <code>{test.component}</code>, then run <code>spout test</code> in that folder. A file already there is yours to keep: rename the new one, or run <code>spout test --from {id}</code>, which never replaces one.
          </p>
          <ul className="save-test-files">
            {test.files.map((f) => (
              <li key={f.name}>
                <button type="button" className="small" onClick={() => downloadFile(f.name, f.content, f.name.endsWith('.json') ? 'application/json' : 'text/javascript')}>
                  Download {f.name}
                </button>
              </li>
            ))}
          </ul>
          {test.warnings.length > 0 && (
            <ul className="save-test-warnings" aria-label="What the test may not reproduce">
              {test.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          )}
        </section>
      )}
    </>
  );
}
