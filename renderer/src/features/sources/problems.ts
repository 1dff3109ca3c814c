import type { InvocationView } from '../../../../runtime/contract/invocation-api';
import type { FieldProblem } from '../../../../runtime/contract/problem';
import type { EditorMarker } from '../../ui/code-editor/monaco-editor';

/** Where a problem of the service points: a code position (`file:line:col`), a prop (`props.x…`) or neither. */
export interface LocatedProblem extends FieldProblem {
  /** A warning: a rule Pipedream tolerates; the component runs anyway. */
  warning?: boolean;
  line: number | null;
  column: number;
  prop: string | null;
}

/** Places the service's validation problems: `file:3:7` at that position, `props.x.min` at the line defining `x`. */
export function locateProblems(problems: FieldProblem[], code: string): LocatedProblem[] {
  const lines = code.split('\n');
  return problems.map((p) => {
    const pos = /:(\d+):(\d+)$/.exec(p.path) ?? /:(\d+)$/.exec(p.path);
    if (pos) return { ...p, line: Number(pos[1]), column: pos[2] ? Number(pos[2]) : 1, prop: null };
    const prop = /^(?:props|additionalProps)\.([^.]+)/.exec(p.path)?.[1] ?? null;
    const field = p.path.split('.').slice(prop ? 2 : 0)[0] ?? p.path;
    // The line that defines the prop (or the top-level field, e.g. `version`), when it can be found.
    const name = prop ?? field;
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const index = name ? lines.findIndex((l) => new RegExp(`(^|[\\s{,"'])${escaped}["']?\\s*:`).test(l)) : -1;
    return { ...p, line: index === -1 ? null : index + 1, column: 1, prop };
  });
}

export function toMarkers(problems: LocatedProblem[]): EditorMarker[] {
  return problems.filter((p) => p.line !== null).map((p) => ({ line: p.line as number, column: p.column, message: p.path ? `${p.path}: ${p.message}` : p.message, severity: p.warning ? 'warning' : 'error' }));
}

/** What a failed deploy's hook run left (its warnings and errors logged, the calls no recording answered), as problems to read: the source was not kept. */
export function runProblems(run: InvocationView | null): LocatedProblem[] {
  if (!run) return [];
  const place = { line: null, column: 1, prop: null };
  const logs = run.logs.filter((l) => l.level === 'warn' || l.level === 'error').map((l) => ({ path: `${run.hook ?? 'hook'}() log`, message: l.message, ...place }));
  const calls = run.calls.filter((c) => c.served_by === 'discovery' || c.response === null).map((c) => ({ path: 'call', message: `${c.request.method} ${c.request.url}: ${c.error ?? 'not in the cassette (discovery answered {})'}`, ...place }));
  return [...logs, ...calls];
}
