// The runner process of an isolated run (isolated-test-run.ts; built to dist/testing-runner.js): runs
// the test files named by its argument with node:test, as `spout test` does, and writes each
// result as a JSON line on stdout. It and the test processes it starts inherit its permission flags.
import { TestResultCollector } from './test-results';
import { testEvents } from './test-run';

/** What the service asks of a runner process (its one argument, as JSON). */
export interface RunnerJob {
  files: string[];
  filter?: string;
  updateSnapshots?: boolean;
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? '{}') as RunnerJob;
  const collector = new TestResultCollector();
  for await (const event of testEvents(job.files, { filter: job.filter, updateSnapshots: job.updateSnapshots })) {
    for (const line of collector.take(event)) process.stdout.write(`${JSON.stringify(line)}\n`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
