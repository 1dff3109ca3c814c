import type { ReactNode } from 'react';
import { CopyButton } from './CopyButton';

/** A term and its value in a `dl.meta-grid`: the value as code beside a Copy button (`shown` replaces what is seen, a masked secret say; the copy is always `value`). */
export function CopyEntry({ term, value, copyLabel, testId, shown, children }: { term: ReactNode; value: string; copyLabel: string; testId?: string; shown?: string; children?: ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd className="row">
        <code data-testid={testId}>{shown ?? value}</code>
        {children}
        <CopyButton text={value} label={copyLabel} />
      </dd>
    </>
  );
}
