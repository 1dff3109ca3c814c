// Where the CLI finds its service: `spout login` profiles in $XDG_CONFIG_HOME/spout/config, -p,
// and the local service found through the data dir's server.json and api-key.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, cliEnv, cliJson } from '../helpers/cli';
import { deploySource, type SpoutProcess, startSpout, tempDir } from '../helpers/service';

describe('spout login, profiles and the local service', () => {
  let spout: SpoutProcess;
  before(async () => {
    // The key is also kept in DATA_DIR/api-key, where the CLI finds it.
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, 'api-key'), 'local-key-1\n', { mode: 0o600 });
    spout = await startSpout({ dataDir, apiKey: 'local-key-1' });
    await deploySource(spout);
  });
  after(async () => void (await spout.stop()));

  it('saves profiles with mode 0600 and uses them with -p, and the default one without', async () => {
    const env = cliEnv(null);
    const file = path.join(env.XDG_CONFIG_HOME as string, 'spout', 'config');

    // A wrong key is checked and not saved.
    const bad = await cli(['login', '--api-url', spout.url, '--api-key', 'wrong', '-p', 'work'], env);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /refused the API key/);
    assert.ok(!fs.existsSync(file));

    const saved = await cliJson(['login', '--api-url', `${spout.url}/`, '--api-key', spout.apiKey, '-p', 'work'], env);
    assert.deepEqual(saved, { profile: 'work', api_url: spout.url, config: file });
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.match(fs.readFileSync(file, 'utf8'), new RegExp(`\\[work\\]\\napi_url = ${spout.url}\\napi_key = ${spout.apiKey}\\n`));

    // -p picks it; without it (no default profile, no local service) the CLI says what to do.
    assert.equal((await cliJson<any[]>(['-p', 'work', 'list', 'sources'], env)).length, 1);
    assert.equal((await cliJson<any[]>(['list', 'sources', '--profile', 'work'], env)).length, 1);
    const none = await cli(['list', 'sources'], env);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no local Spout service is running.*spout serve.*--api-url.*spout login/);
    const unknown = await cli(['-p', 'nope', 'list', 'sources'], env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no profile "nope".*there are: work.*spout login -p nope/);

    // The default profile (login without -p) is used by every command; other profiles are kept.
    await cliJson(['login', '--api-url', spout.url, '--api-key', spout.apiKey], env);
    assert.equal((await cliJson<any[]>(['list', 'sources'], env)).length, 1);
    assert.match(fs.readFileSync(file, 'utf8'), /\[default\][\s\S]*\[work\]/);
    // Flags win over the profile.
    const flagged = await cli(['list', 'sources', '--api-key', 'wrong'], env);
    assert.equal(flagged.code, 1);
    assert.equal((await cli(['login'], env)).code, 2);
  });

  it('finds the local service through the data dir', async () => {
    const env = cliEnv(null, { SPOUT_DATA_DIR: spout.dataDir });
    assert.equal((await cliJson<any[]>(['list', 'sources'], env)).length, 1);
    // --data-dir too, and SPOUT_API_KEY overrides the kept key.
    const other = cliEnv(null, { SPOUT_API_KEY: 'wrong' });
    assert.equal((await cliJson<any[]>(['list', 'sources', '--data-dir', spout.dataDir, '--api-key', spout.apiKey], other)).length, 1);
    const refused = await cli(['list', 'sources', '--data-dir', spout.dataDir], other);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /refused the API key \(from SPOUT_API_KEY\)/);
  });
});
