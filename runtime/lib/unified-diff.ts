import { createTwoFilesPatch } from 'diff';

/** A unified diff from `before` to `after` (3 lines of context), headed by `labels`; null when they read the same. */
export function unifiedDiff(before: string, after: string, labels: [string, string]): string | null {
  if (before === after) return null;
  const patch = createTwoFilesPatch(labels[0], labels[1], before, after, '', '', { context: 3 });
  // Drop the `Index`/`===` preamble: the caller says what is compared.
  return patch
    .split('\n')
    .filter((l) => !l.startsWith('Index:') && !/^=+$/.test(l))
    .join('\n')
    .trimEnd();
}
