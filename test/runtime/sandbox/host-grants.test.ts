// The command a component host starts with: the kernel's limits and, on Linux, the SCHED_BATCH
// class for the host and every thread it starts (docs/performance.md).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { MAX_HOST_FDS } from '../../../runtime/contract/limits';
import { hostLauncher } from '../../../runtime/sandbox/host-grants';

/** What a process started by the launcher reports of itself: its open-file limit and each thread's scheduling policy. */
const REPORT = `
const fs = require('node:fs');
const { Worker } = require('node:worker_threads');
const worker = new Worker('setTimeout(() => {}, 200)', { eval: true });
worker.on('online', () => {
  // Field 41 of /proc/<pid>/task/<tid>/stat, counted after the command name (in parentheses, which it may hold too).
  const policy = (stat) => Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[38]);
  const policies = fs.readdirSync('/proc/self/task').map((t) => policy(fs.readFileSync('/proc/self/task/' + t + '/stat', 'utf8')));
  const files = /Max open files\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/limits', 'utf8'))[1];
  console.log(JSON.stringify({ policies, files: Number(files) }));
  worker.terminate();
});
`;

describe('hostLauncher', () => {
  it('on Linux, starts the host in the SCHED_BATCH class, every thread of it, with its open-file limit', { skip: process.platform !== 'linux' && 'SCHED_BATCH is a Linux class' }, () => {
    const launch = hostLauncher(process.execPath, ['-e', REPORT], 1024 * 1024);
    const report = JSON.parse(execFileSync(launch.file, launch.args, { encoding: 'utf8' })) as { policies: number[]; files: number };
    const SCHED_BATCH = 3;
    assert.ok(report.policies.length > 2, 'the main thread, the worker and Node’s own threads');
    assert.deepEqual(new Set(report.policies), new Set([SCHED_BATCH]));
    assert.equal(report.files, MAX_HOST_FDS);
  });
});
