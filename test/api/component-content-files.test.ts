// Issue 44 point 5: a save's cost does not grow with the saves before it. Each save writes its new
// texts to content files (`components/<sha256>.<kind>`) and a small record to metadata.json; after
// many saves and a restart the latest code runs; a data dir of an older Spout (texts inline in
// metadata.json) starts with nothing lost; a missing content file is named by the start and by
// `spout doctor` with the source it stops and the fix.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliEnv } from '../helpers/cli';
import { deploySource, startSpout, tempDir } from '../helpers/service';

/** A table of about 40 KB, so that each bundle (with its inline source map) is over 100 KB. */
const TABLE = Array.from({ length: 1200 }, (_, i) => `  ["row-${i}", ${i}],`).join('\n');

/** Version `n` of a source (written for this test) answering its version. */
const versioned = (n: number) => `const TABLE = [\n${TABLE}\n];
export default {
  name: "Content", version: "0.1.0",
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run() { this.http.respond({ status: 200, body: "v${n}:" + TABLE.length }); },
};`;

const answer = async (endpoint: string) => {
  const res = await fetch(endpoint, { method: 'POST', body: '{}' });
  return `${res.status} ${await res.text()}`;
};

const file = (dataDir: string, ...parts: string[]) => path.join(dataDir, ...parts);
const contentNames = (dataDir: string) => fs.readdirSync(file(dataDir, 'components')).sort();

/** A data dir with a source saved `saves` times after its deploy; its endpoint's path. */
async function savedManyTimes(saves: number): Promise<{ dataDir: string; id: string; path: string; sizes: number[] }> {
  const spout = await startSpout({ dataDir: tempDir() });
  try {
    const source = await deploySource(spout, versioned(0));
    const sizes = [fs.statSync(file(spout.dataDir, 'metadata.json')).size];
    for (let n = 1; n <= saves; n++) {
      const saved = await spout.api('PUT', `/v1/sources/${source.id}`, { component_code: versioned(n) });
      assert.equal(saved.status, 200, JSON.stringify(saved.json));
      sizes.push(fs.statSync(file(spout.dataDir, 'metadata.json')).size);
    }
    assert.equal(await answer(source.endpoint), `200 v${saves}:1200`);
    return { dataDir: spout.dataDir, id: source.id, path: new URL(source.endpoint).pathname, sizes };
  } finally {
    await spout.stop();
  }
}

describe('component content files', () => {
  it('each save writes content files and a small record; after 25 saves and a restart the latest code runs', async () => {
    const built = await savedManyTimes(25);
    const bundle = fs.statSync(file(built.dataDir, 'components', contentNames(built.dataDir).find((n) => n.endsWith('.js')) as string)).size;
    assert.ok(bundle > 100_000, `a bundle is ${bundle} bytes`);
    const growth = ((built.sizes.at(-1) as number) - (built.sizes[0] as number)) / 25;
    assert.ok(growth < bundle / 20, `metadata.json grows ${growth} bytes a save, not by the bundle (${bundle})`);
    const metadata = fs.readFileSync(file(built.dataDir, 'metadata.json'), 'utf8');
    assert.ok(!metadata.includes('row-1199'), 'no code or bundle is in metadata.json');
    // 26 versions, each a code and a bundle file.
    assert.equal(contentNames(built.dataDir).length, 52);

    const spout = await startSpout({ dataDir: built.dataDir });
    try {
      assert.doesNotMatch(spout.output(), /missing|damaged/);
      assert.equal(await answer(spout.url + built.path), '200 v25:1200');
      const read = await spout.api('GET', `/v1/sources/${built.id}`);
      assert.equal(read.json.data.code, versioned(25));
      // Every version a user saved is still listed and readable.
      const versions = (await spout.api('GET', '/v1/users/me/components?limit=100')).json.data as Array<{ id: string }>;
      assert.equal(versions.length, 26);
      assert.equal((await spout.api('GET', `/v1/components/${versions[25]?.id}`)).json.data.code, versioned(0));
    } finally {
      await spout.stop();
    }
  });

  it('a data dir of an older Spout (texts inline in metadata.json) starts with nothing lost, its texts moved to content files', async () => {
    const built = await savedManyTimes(2);
    // Made into the older shape: every text inline, no components/ folder.
    const metadataFile = file(built.dataDir, 'metadata.json');
    const metadata = JSON.parse(fs.readFileSync(metadataFile, 'utf8'));
    for (const c of metadata.components) {
      c.code = fs.readFileSync(file(built.dataDir, 'components', c.content.code), 'utf8');
      c.bundle = fs.readFileSync(file(built.dataDir, 'components', c.content.bundle), 'utf8');
      delete c.content;
    }
    const older = JSON.stringify(metadata, null, 2);
    for (const name of ['metadata.json', 'metadata.json.copy']) fs.writeFileSync(file(built.dataDir, name), older);
    fs.rmSync(file(built.dataDir, 'metadata.json.prev'));
    fs.rmSync(file(built.dataDir, 'components'), { recursive: true });

    const spout = await startSpout({ dataDir: built.dataDir });
    try {
      assert.doesNotMatch(spout.output(), /missing|damaged/);
      assert.equal(await answer(spout.url + built.path), '200 v2:1200');
      const versions = (await spout.api('GET', '/v1/users/me/components')).json.data as Array<{ id: string }>;
      assert.equal(versions.length, 3);
      for (const [i, v] of versions.entries()) assert.equal((await spout.api('GET', `/v1/components/${v.id}`)).json.data.code, versioned(2 - i));
      const moved = JSON.parse(fs.readFileSync(metadataFile, 'utf8'));
      assert.ok(
        moved.components.every((c: Record<string, unknown>) => c.code === undefined && c.bundle === undefined && c.content !== undefined),
        'the texts moved out',
      );
      assert.equal(contentNames(built.dataDir).length, 6);
    } finally {
      await spout.stop();
    }
    assert.equal((await cli(['doctor'], cliEnv(null, { SPOUT_DATA_DIR: built.dataDir }))).code, 0, 'the doctor finds nothing wrong');
  });

  it('a missing content file is named, with the source it stops and the fix, by the start, `spout doctor` and the endpoint', async () => {
    const built = await savedManyTimes(1);
    const record = JSON.parse(fs.readFileSync(file(built.dataDir, 'metadata.json'), 'utf8')).components.at(-1);
    fs.rmSync(file(built.dataDir, 'components', record.content.bundle));

    const check = await cli(['doctor'], cliEnv(null, { SPOUT_DATA_DIR: built.dataDir }));
    assert.equal(check.code, 1, check.stdout + check.stderr);
    const said = new RegExp(`component ${record.id} keeps its bundle in components/${record.content.bundle}, which is missing: source ${built.id} \\("Content"\\) cannot load until the file is restored from a backup or the source's code is saved again \\(\`spout update ${built.id} --code FILE\``);
    assert.match(check.stdout, said);

    const spout = await startSpout({ dataDir: built.dataDir });
    try {
      assert.match(spout.output(), said);
      const res = await fetch(spout.url + built.path, { method: 'POST', body: '{}' });
      assert.equal(res.status, 503);
      // Saving the code again mends it.
      assert.equal((await spout.api('PUT', `/v1/sources/${built.id}`, { component_code: versioned(1) })).status, 200);
      assert.equal(await answer(spout.url + built.path), '200 v1:1200');
    } finally {
      await spout.stop();
    }
    assert.equal((await cli(['doctor'], cliEnv(null, { SPOUT_DATA_DIR: built.dataDir }))).code, 0, 'nothing is left to mend');
  });
});
