import { useState } from 'react';
import type { InvocationView } from '../../../../runtime/contract/invocation-api';

/**
 * What a run threw: the message, and the stack mapped to the component's own file; a toggle shows
 * the full stack with the runtime's frames.
 */
export function InvocationErrorView({ error }: { error: NonNullable<InvocationView['error']> }) {
  const [full, setFull] = useState(false);
  const more = error.full_stack !== null && error.full_stack !== error.stack;
  const stack = full && more ? error.full_stack : (error.stack ?? error.full_stack);
  return (
    <div className="step-error" data-testid="invocation-error">
      <strong>
        {error.name}: {error.message}
      </strong>
      {stack && (
        <>
          <pre className="stack" data-testid="error-stack">
            {stack}
          </pre>
          {more && (
            <button type="button" className="small" aria-pressed={full} onClick={() => setFull(!full)}>
              {full ? 'Hide runtime frames' : 'Show runtime frames'}
            </button>
          )}
        </>
      )}
    </div>
  );
}
