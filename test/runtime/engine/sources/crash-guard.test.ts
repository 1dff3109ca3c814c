import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ComponentLibrary } from '../../../../runtime/components/library';
import { CrashGuard } from '../../../../runtime/engine/sources/crash-guard';
import type { SourceHosts } from '../../../../runtime/engine/sources/source-hosts';
import { SourceRecords } from '../../../../runtime/engine/sources/source-records';
import type { SourceTimers } from '../../../../runtime/engine/sources/source-timers';
import type { HostExit } from '../../../../runtime/sandbox/host-process';
import type { SourceRecord } from '../../../../runtime/store/metadata';
import { type EngineStores, openEngineStores } from '../../../helpers/engine';

const crash: HostExit = { cause: 'crashed', message: 'exited with code 1' };

let stores: EngineStores;
let guard: CrashGuard;
let source: SourceRecord;
let suspended: string[];
let unscheduled: string[];

beforeEach(async () => {
  stores = await openEngineStores();
  suspended = [];
  unscheduled = [];
  source = { id: 'dc_crashy', component_id: 'sc_x', name: 'Crashy', name_slug: 'crashy', configured_props: {}, endpoints: {}, active: true, created_at: 0, updated_at: 0 };
  stores.metadata.data.sources.push(source);
  await stores.logs.open(source.id);
  const hosts = { suspend: (id: string) => suspended.push(id) } as unknown as SourceHosts;
  const timers = { unschedule: (id: string) => unscheduled.push(id) } as unknown as SourceTimers;
  guard = new CrashGuard(new SourceRecords(stores.metadata, new ComponentLibrary(stores.metadata)), hosts, timers, stores.logs);
});

afterEach(() => stores.close());

describe('CrashGuard', () => {
  it('deactivates a source whose host ends five times, saying why and how to start it again', () => {
    for (let i = 0; i < 4; i++) guard.hostExited(source.id, crash);
    assert.equal(source.active, true);
    guard.hostExited(source.id, crash);
    assert.equal(source.active, false);
    assert.match(source.deactivated_reason ?? '', /ended 5 times within 5 minutes \(last: exited with code 1\); update its code or set it active again/);
    assert.deepEqual([suspended, unscheduled], [[source.id], [source.id]]);
    assert.equal(stores.logs.list(source.id)[0]?.message, source.deactivated_reason);
  });

  it('does not count timeouts or stops the service asked for, and starts over when told to forget', () => {
    for (let i = 0; i < 5; i++) guard.hostExited(source.id, { ...crash, cause: 'timeout' });
    for (let i = 0; i < 5; i++) guard.hostExited(source.id, { ...crash, cause: 'stopped' });
    for (let i = 0; i < 4; i++) guard.hostExited(source.id, crash);
    guard.forget(source.id);
    guard.hostExited(source.id, crash);
    assert.equal(source.active, true);
  });
});
