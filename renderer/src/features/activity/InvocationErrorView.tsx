import { type ReactNode, useState } from 'react';
import type { InvocationView } from '../../../../runtime/contract/invocation-api';

/** A frame in the component's own file (`at run (component.mjs:24:48)`): no folder, so not the runtime's. */
const OWN_FRAME = /(?<![\w/.:-])([\w.-]+\.(?:mjs|cjs|js|ts|mts|cts)):(\d+):(\d+)/;

/** A stack with each frame in the component's file as a button that opens that line in the editor (the rest stays text). */
function linkedStack(stack: string, onFrame: (line: number, column: number) => void): ReactNode[] {
  return stack.split('\n').flatMap((text, i) => {
    const m = OWN_FRAME.exec(text);
    const lineBreak = i === 0 ? '' : '\n';
    if (!m) return [lineBreak + text];
    const line = Number(m[2]);
    const column = Number(m[3]);
    return [
      lineBreak + text.slice(0, m.index),
      <button key={i} type="button" className="link frame-link" title={`Open line ${line} in the editor`} onClick={() => onFrame(line, column)}>
        {m[0]}
      </button>,
      text.slice(m.index + m[0].length),
    ];
  });
}

/**
 * What a run threw: the message, and the stack mapped to the component's own file (its frames open
 * their line in the editor, with `onFrame`); a toggle shows the full stack with the runtime's frames.
 */
export function InvocationErrorView({ error, onFrame }: { error: NonNullable<InvocationView['error']>; onFrame?(line: number, column: number): void }) {
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
            {onFrame ? linkedStack(stack, onFrame) : stack}
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
