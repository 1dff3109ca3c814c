// The gallery's saved entries (issue 43): one per component, by key, or by kind and name for a
// component without one; versions newest first; entries newest first.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { savedEntries } from '../../../../renderer/src/features/gallery/gallery-entries';
import type { ComponentView } from '../../../../runtime/contract/component-api';

const view = (id: string, key: string | null, name: string, version: string, created_at: number, type: 'source' | 'action' = 'source'): ComponentView => ({
  id,
  key,
  name,
  version,
  type,
  description: null,
  code_hash: id.padEnd(64, '0'),
  configurable_props: [],
  warnings: [],
  created_at,
  used_by: [],
});

describe('gallery saved entries', () => {
  it('groups versions by key, else by kind and name, newest first', () => {
    const entries = savedEntries([
      view('sc_a1', 'orders-hook', 'Orders hook', '0.1.0', 100),
      view('sc_b1', null, 'Scratch', '0.0.1', 150),
      view('sc_a2', 'orders-hook', 'Orders hook (renamed)', '0.2.0', 300),
      view('sc_b2', null, 'Scratch', '0.0.2', 200),
      view('sc_c1', null, 'Scratch', '0.0.1', 120, 'action'),
    ]);
    assert.deepEqual(
      entries.map((e) => [e.ref, e.name, e.version, e.versions.map((v) => v.id)]),
      [
        ['sc_a2', 'Orders hook (renamed)', '0.2.0', ['sc_a2', 'sc_a1']],
        ['sc_b2', 'Scratch', '0.0.2', ['sc_b2', 'sc_b1']],
        ['sc_c1', 'Scratch', '0.0.1', ['sc_c1']],
      ],
    );
  });
});
