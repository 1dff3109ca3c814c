// `spout/testing`: load a component file in a component host, as a deploy would, and drive it
// from any test runner (node:test, Vitest, Jest) with no service running and nothing written to
// the user's data dir. docs/testing.md.
import type * as Api from './public-api';
import { matchSnapshot as matchSnapshotOf } from './snapshot';
import { loadTestAction } from './test-action';
import { prestartHost } from './test-runtime';
import { loadTestSource } from './test-source';

export type * from './public-api';

// The first load's host boots while the test file and its runner start.
prestartHost();

/** Loads a source component file for a test. */
export const loadSource: typeof Api.loadSource = (file, options = {}) => loadTestSource(file, options);

/** Loads an action component file for a test (it loads on its first run). */
export const loadAction: typeof Api.loadAction = (file, options = {}) => loadTestAction(file, options);

/** Compares a value with the snapshot kept for this test beside its file. */
export const matchSnapshot: typeof Api.matchSnapshot = (owner, value, name) => matchSnapshotOf(owner, value, name);
