// The packaged app's Electron fuses, and Electronegativity over the main process: no high or
// medium finding that docs/desktop-and-ui.md does not explain (and no explanation left over).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import yaml from 'js-yaml';

const require = createRequire(import.meta.url);

describe('desktop package hardening', () => {
  it('sets the Electron fuses in the electron-builder config', () => {
    const config = yaml.load(fs.readFileSync('electron-builder.yml', 'utf8')) as { electronFuses?: Record<string, boolean>; asar?: boolean };
    assert.equal(config.asar, true);
    assert.deepEqual(config.electronFuses, {
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('passes Electronegativity: every high or medium finding is explained in docs/desktop-and-ui.md', async () => {
    // Electronegativity fetches translations and Electron's release list from the network; tests
    // never leave the machine, so its HTTP client answers "offline" (it then uses what it ships).
    const engDir = path.dirname(require.resolve('@doyensec/electronegativity'));
    const gotPath = require.resolve('got', { paths: [engDir] });
    const offline = Object.assign(() => Promise.reject(new Error('offline: tests do not reach the network')), {});
    Object.assign(offline, { head: offline });
    require.cache[gotPath] = { id: gotPath, filename: gotPath, loaded: true, exports: { __esModule: true, default: offline } } as unknown as NodeJS.Module;
    const log = console.log;
    console.log = () => undefined;
    let result: { issues: Array<{ id: string; file: string; severity: { name: string }; location: { line: number } }>; errors: unknown[] };
    try {
      const eng = require('@doyensec/electronegativity') as { default?: unknown };
      const run = (eng.default ?? eng) as (options: Record<string, unknown>) => Promise<typeof result>;
      const electron = (JSON.parse(fs.readFileSync(require.resolve('electron/package.json'), 'utf8')) as { version: string }).version;
      result = await run({ input: path.resolve('main'), isRelative: true, severitySet: 'informational', confidenceSet: 'tentative', electronVersionOverride: electron, excludeFromScan: ['AvailableSecurityFixesGlobalCheck'], parserPlugins: [] });
    } finally {
      console.log = log;
    }
    assert.deepEqual(result.errors, [], 'every file of main/ parsed');
    const found = result.issues.filter((i) => i.severity.name === 'HIGH' || i.severity.name === 'MEDIUM').map((i) => `${i.id} ${i.file}`);
    const docs = fs.readFileSync('docs/desktop-and-ui.md', 'utf8');
    const section = docs.slice(docs.indexOf('## Electronegativity'));
    const explained = [...section.matchAll(/^\| `([A-Z_]+)` \| `([^`]+)` \|/gm)].map((m) => `${m[1]} ${m[2]}`);
    assert.deepEqual(
      [...new Set(found)].filter((f) => !explained.includes(f)),
      [],
      'findings not explained in docs/desktop-and-ui.md (## Electronegativity)',
    );
    assert.deepEqual(
      explained.filter((e) => !found.includes(e)),
      [],
      'explanations of findings that no longer occur',
    );
  });
});
