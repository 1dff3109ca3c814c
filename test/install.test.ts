// `npm install` on the Node version package.json promises: no installed package may ask for a newer
// Node (npm printed EBADENGINE warnings for @electron/rebuild and node-abi needing 22.12).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import semver from 'semver';

describe('npm install', () => {
  it('installs nothing that requires a newer Node than package.json engines allows', () => {
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { engines: { node: string } };
    const floor = semver.minVersion(pkg.engines.node);
    assert.ok(floor, pkg.engines.node);
    const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }> };
    const refusing = Object.entries(lock.packages)
      .filter(([name, p]) => name && !p.optional && p.engines && !Array.isArray(p.engines) && p.engines.node && !semver.satisfies(floor, p.engines.node))
      .map(([name, p]) => `${name.replace(/^.*node_modules\//, '')} needs node ${(p.engines as { node: string }).node}`);
    assert.deepEqual(refusing, [], `engines: ${pkg.engines.node}`);
  });
});
