// What every component loaded by one test process shares: where hosts come from, a work folder
// (temp folders, dbs, dedupe caches) removed when the process ends, and the package cache. None
// of it is in the user's data dir: packages are cached in `~/.cache/spout/packages` (or
// `SPOUT_TEST_CACHE`), so a test of a component importing `lodash` installs it once per machine,
// and bundles in `bundles/` beside them (test-bundle-cache.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_COMPONENT_MEMORY_MB } from '../contract/limits';
import { hostScript } from '../lib/paths';
import { PackageCache } from '../components/packages';
import { platformReadPaths } from '../components/platform-packages';
import { HostPool } from '../sandbox/host-pool';

/** The shared parts of one test process. */
export interface TestRuntime {
  hosts: HostPool;
  packages: PackageCache;
  /** A folder of this process's own, removed at its exit. */
  workDir: string;
}

let runtime: TestRuntime | null = null;

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
  runtime = { hosts, packages, workDir };
  // Hosts are killed by the pool on exit; the work folder goes with them.
  process.once('exit', () => {
    hosts.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });
  return runtime;
}
