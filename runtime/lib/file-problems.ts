// What a start (or `spout doctor`) found wrong in the data dir's files, and how it is said. A
// damaged file never stops a start: its damaged part is set aside and reported with the file and
// the line, and the rest is used.
import path from 'node:path';

/** One thing found wrong in a data file. */
export interface FileProblem {
  /** Absolute path of the file. */
  file: string;
  /** 1-based line of a JSON-lines file, when the problem is one line. */
  line?: number;
  /** What is wrong and what was done about it, e.g. `not JSON (…); set aside in x.damaged`. */
  message: string;
}

/** Receives problems as files are read. */
export type ProblemSink = (problem: FileProblem) => void;

/** Problems reported one by one per file; past this, one line says how many more there were. */
export const PROBLEMS_SHOWN_PER_FILE = 20;

/** Collects the problems of a start, in the order they were found. */
export class ProblemLog {
  readonly problems: FileProblem[] = [];
  private readonly perFile = new Map<string, number>();

  /** The sink to hand to the stores. */
  readonly sink: ProblemSink = (problem) => {
    const seen = (this.perFile.get(problem.file) ?? 0) + 1;
    this.perFile.set(problem.file, seen);
    if (seen <= PROBLEMS_SHOWN_PER_FILE) this.problems.push(problem);
    else if (seen === PROBLEMS_SHOWN_PER_FILE + 1) this.problems.push({ file: problem.file, message: 'more problems in this file were found; `spout doctor` lists them all' });
  };

  /** How many problems were found in all (shown or not). */
  get count(): number {
    let n = 0;
    for (const seen of this.perFile.values()) n += seen;
    return n;
  }
}

/** One problem as a line of text, its file named relative to `base` (the data dir) when inside it. */
export function describeProblem(problem: FileProblem, base?: string): string {
  const file = base && problem.file.startsWith(base + path.sep) ? path.relative(base, problem.file) : problem.file;
  return `${file}${problem.line !== undefined ? ` line ${problem.line}` : ''}: ${problem.message}`;
}

/** The default sink: each problem on stderr as it is found. */
export const printProblem: ProblemSink = (problem) => console.error(`spout: ${describeProblem(problem)}`);
