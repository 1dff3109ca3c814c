// Issue 42, point 4: one budget for everything hosts send the service at once. A message counts
// from its length until the service is done with it; one that does not fit waits, its host's
// channel unread (back-pressure), and waiting messages are let in in order.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import type { HostReply } from '../../../runtime/contract/host-protocol';
import { EVENT_BYTES, HostBudget } from '../../../runtime/sandbox/host-budget';
import { HostLimits } from '../../../runtime/sandbox/host-limits';
import { HostProcess } from '../../../runtime/sandbox/host-process';
import { waitFor } from '../../helpers/service';

/** A message from a host, framed as the host writes it, and its size in the budget. */
function framed(message: unknown): { frame: Buffer; bytes: number } {
  const body = Buffer.from(JSON.stringify(message));
  const head = Buffer.alloc(4);
  head.writeUInt32LE(body.length);
  return { frame: Buffer.concat([head, body]), bytes: 4 + body.length };
}

const logFrame = (message: string) => framed({ type: 'log', invocationId: null, level: 'log', message });

/** A host process stand-in: its channel is a stream the test writes frames to; `handle` decides when each message is done with. */
function fakeHost(budget: HostBudget, handle: (reply: HostReply) => Promise<unknown> | void) {
  const channel = new PassThrough();
  const child = Object.assign(new EventEmitter(), { pid: 1, stdio: [null, null, null, channel, null], stdout: null, stderr: null, kill: () => child.emit('exit', null, 'SIGKILL') });
  const host = new HostProcess(child as unknown as ChildProcess, 512, [], null, budget);
  const received: string[] = [];
  host.attach({ onReply: (reply) => (reply.type === 'log' && received.push(reply.message), handle(reply)), onOutput: () => {}, onExit: () => {} });
  return { host, received, send: (message: string) => channel.write(logFrame(message).frame), write: (frame: Buffer) => channel.write(frame) };
}

describe('the hosts’ budget', () => {
  it('holds a message until it is handled; one that does not fit waits, then comes in', async () => {
    const big = logFrame('a'.repeat(100));
    const budget = new HostBudget(big.bytes + 20);
    let handled!: () => void;
    const a = fakeHost(budget, () => new Promise<void>((resolve) => (handled = resolve)));
    const b = fakeHost(budget, () => undefined);
    a.send('a'.repeat(100));
    await waitFor(() => a.received.length === 1, 5000, "a's message");
    assert.equal(budget.inFlight, big.bytes, 'held while it is handled');
    b.send('b'.repeat(50));
    await waitFor(() => b.host.waiting, 5000, "b's message to wait");
    assert.deepEqual(b.received, []);
    handled();
    await waitFor(() => b.received.length === 1, 5000, "b's message");
    assert.equal(budget.inFlight, 0, 'given back once handled');
  });

  it('lets waiting messages in in the order they asked, and forgets those of a host that ended', async () => {
    const budget = new HostBudget(logFrame('x'.repeat(200)).bytes);
    const order: string[] = [];
    let handled!: () => void;
    const a = fakeHost(budget, () => new Promise<void>((resolve) => (handled = resolve)));
    const [b, c, d] = [0, 1, 2].map(() => fakeHost(budget, (reply) => void order.push(reply.type === 'log' ? reply.message.slice(0, 1) : '')));
    a.send('a'.repeat(100));
    await waitFor(() => a.received.length === 1, 5000, "a's message");
    b!.send('b'.repeat(200));
    await waitFor(() => b!.host.waiting, 5000, 'b to wait');
    // c's message would fit beside a's, but b asked first.
    c!.send('c');
    await waitFor(() => c!.host.waiting, 5000, 'c to wait');
    d!.send('d');
    await waitFor(() => d!.host.waiting, 5000, 'd to wait');
    c!.host.kill({ cause: 'stopped', message: 'test' });
    assert.equal(c!.host.waiting, false);
    handled();
    await waitFor(() => order.length === 2, 5000, 'b and d');
    assert.deepEqual(order, ['b', 'd']);
    assert.equal(budget.inFlight, 0);
  });

  it('counts each event a message carries for more than its bytes, and lets a message larger than the budget in alone', async () => {
    const emits = framed({ type: 'emits', emits: [0, 1, 2].map((i) => ({ json: `{"i":${i}}`, meta: {} })) });
    const budget = new HostBudget(emits.bytes);
    let handled!: () => void;
    const a = fakeHost(budget, () => new Promise<void>((resolve) => (handled = resolve)));
    a.write(emits.frame);
    await waitFor(() => budget.inFlight > 0, 5000, 'the emits');
    assert.equal(budget.inFlight, emits.bytes + 3 * EVENT_BYTES);
    handled();
    await waitFor(() => budget.inFlight === 0, 5000, 'the emits to be given back');
    a.send('y'.repeat(emits.bytes));
    await waitFor(() => a.received.length === 1, 5000, 'a message over the whole budget');
  });

  it('a host stopped for memory while it waited is told so, with the budget', () => {
    const stops: string[] = [];
    const limits = new HostLimits({ memoryMb: 512, diskBytes: 1 << 30, serviceNice: () => 0 });
    const host = { pid: -1, exited: false, busy: true, waiting: true, strayCpuLimitMs: 60_000, ownFolders: [], tempFolder: null, stopForLimit: (m: string) => void stops.push(m) };
    limits.observe(host, { memory: 600 << 20, ctime: 0 });
    assert.deepEqual(stops, ['its component host used 600 MB of memory, over the limit of 512 MB, and was stopped (the limit is set with --component-memory); it was sending more than the service takes in from all hosts at once (128 MB), and what waited stayed in its memory']);
  });
});
