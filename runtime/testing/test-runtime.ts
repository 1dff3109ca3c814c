// What every component loaded by one test process shares: where hosts come from, a work folder
// (temp folders, dbs, dedupe caches) removed when the process ends, and the package cache. None
// of it is in the user's data dir: packages are cached in `~/.cache/spout/packages` (or
// `SPOUT_TEST_CACHE`), so a test of a component importing `lodash` installs it once per machine,
// and bundles in `bundles/` beside them (test-bundle-cache.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PackageCache } from '../components/packages';
import { platformReadPaths } from '../components/platform-packages';
import type { HostGrants } from '../contract/host-protocol';
import { DEFAULT_COMPONENT_MEMORY_MB } from '../contract/limits';
import { hostScript } from '../lib/paths';
import { dirGrants } from '../props/dir/dir-folders';
import { NO_GRANTS } from '../sandbox/host-grants';
import { HostPool } from '../sandbox/host-pool';
import type { HostProcess } from '../sandbox/host-process';
import { makeTempFolder } from '../sandbox/temp-folder';

/** The shared parts of one test process. */
export interface TestRuntime {
  hosts: HostPool;
  packages: PackageCache;
  /** A folder of this process's own, removed at its exit. */
  workDir: string;
  /** A new owner id for a loaded component (`test_1`, `test_2`…): its temp folder, dirs and grants are named by it. */
  nextOwner(): string;
  /**
   * The host started for the first load when spout/testing was imported (`prestartHost`), if that
   * load is this one (`owner`) and its grants are those it was started with; else it is stopped.
   */
  takePrestarted(owner: string, grants: HostGrants): HostProcess | null;
}

let runtime: TestRuntime | null = null;

/** Set while the runtime is made: starts the first load's host (see prestartHost). */
let prestart: ((grantsOf: (owner: string, workDir: string) => HostGrants) => void) | null = null;

/**
 * Starts the host of this process's first load at once (spout/testing's import), so that it boots
 * while the test file loads and its runner starts: a test file's one host costs it no waiting.
 * A first load with other grants (`allowRead`) stops it and starts its own.
 */
export function prestartHost(): void {
  testRuntime();
  prestart?.((owner, workDir) => dirGrants(NO_GRANTS, workDir, owner));
  prestart = null;
}

/** The folder kept between test runs: installed packages and bundles. */
export function testCacheDir(): string {
  if (process.env.SPOUT_TEST_CACHE) return path.resolve(process.env.SPOUT_TEST_CACHE);
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'spout');
}

/** This process's test runtime, made on first use. */
export function testRuntime(): TestRuntime {
  if (runtime) return runtime;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spout-test-'));
  const packages = new PackageCache({ dir: path.join(testCacheDir(), 'packages'), registry: process.env.SPOUT_NPM_REGISTRY, onProgress: (line) => process.stderr.write(`spout/testing: ${line}\n`) });
  packages.ensureDir();
  // No spare host: each source gets a temp folder of its own, which a spare (started without one) cannot serve.
  const hosts = new HostPool({ script: hostScript, baseRead: [packages.dir, ...platformReadPaths()], memoryMb: DEFAULT_COMPONENT_MEMORY_MB, dataDir: workDir, spare: false, unref: true });
  let owners = 0;
  let prestarted: { owner: string; grants: HostGrants; host: HostProcess } | null = null;
  runtime = {
    hosts,
    packages,
    workDir,
    nextOwner: () => `test_${++owners}`,
    takePrestarted(owner, grants) {
      const early = prestarted;
      prestarted = null;
      if (!early) return null;
      if (early.owner === owner && JSON.stringify(early.grants) === JSON.stringify(grants)) return early.host;
      hosts.dropAhead(early.host);
      return null;
    },
  };
  prestart = (grantsOf) => {
    const owner = 'test_1';
    const grants = grantsOf(owner, workDir);
    prestarted = { owner, grants, host: hosts.startAhead(grants, makeTempFolder(workDir, owner).path) };
  };
  // Hosts are killed by the pool on exit; the work folder goes with them.
  process.once('exit', () => {
    hosts.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });
  return runtime;
}
