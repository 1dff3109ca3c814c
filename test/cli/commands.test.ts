// The management commands of docs/cli.md, run as the real `spout` binary against a real
// service, their --json output parsed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, cliEnv, cliJson, startCli } from '../helpers/cli';
import { type SpoutProcess, startSpout, tempDir, waitFor } from '../helpers/service';

/** A source whose summary prefix comes from a relative import (bundled by the CLI). */
const FILE_SOURCE = `import { prefix } from "./common/prefix.mjs";
export default {
  key: "cli-file-source",
  name: "File source",
  version: "0.1.0",
  props: {
    http: { type: "$.interface.http" },
    label: { type: "string", label: "Label" },
  },
  async run(event) {
    console.log("handled " + event.path);
    this.$emit({ path: event.path, label: this.label }, { summary: prefix + this.label + " " + event.path });
  },
};
`;

const URL_SOURCE = `export default {
  name: "From a URL",
  version: "0.1.0",
  props: { http: { type: "$.interface.http" } },
  async run(event) { this.$emit({ via: "url", path: event.path }); },
};
`;

const ACTION = `export default {
  key: "cli-shout",
  name: "Shout",
  version: "0.1.0",
  type: "action",
  props: { text: { type: "string" } },
  async run() { return this.text.toUpperCase(); },
};
`;

describe('spout management commands', () => {
  let spout: SpoutProcess;
  let env: Record<string, string | undefined>;
  let codeServer: http.Server;
  let codeUrl: string;
  const dir = tempDir('spout-cli-');

  before(async () => {
    spout = await startSpout();
    env = cliEnv(spout);
    codeServer = http.createServer((req, res) => {
      if (req.url === '/raw/url-source.mjs') res.writeHead(200, { 'content-type': 'text/plain' }).end(URL_SOURCE);
      else res.writeHead(404).end('not here');
    });
    await new Promise<void>((resolve) => codeServer.listen(0, '127.0.0.1', resolve));
    codeUrl = `http://127.0.0.1:${(codeServer.address() as AddressInfo).port}`;
    fs.mkdirSync(path.join(dir, 'common'));
    fs.writeFileSync(path.join(dir, 'common', 'prefix.mjs'), 'export const prefix = "[file] ";\n');
    fs.writeFileSync(path.join(dir, 'file-source.mjs'), FILE_SOURCE);
    fs.writeFileSync(path.join(dir, 'shout.mjs'), ACTION);
  });
  after(async () => {
    codeServer.close();
    await spout.stop();
  });

  const hit = (endpoint: string, p: string) => fetch(endpoint + p, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });

  it('deploys from a file (relative imports bundled), a registry key and a URL, and manages the sources', async () => {
    // A file; missing props are an error off a terminal, naming them and --props.
    const missing = await cli(['deploy', 'file-source.mjs'], env, { cwd: dir });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing required props: label \(string, "Label"\).*--props '\{"label":"…"\}'/);
    const fromFile = await cliJson(['deploy', 'file-source.mjs', '--props', '{"label":"orders"}'], env, { cwd: dir });
    assert.match(fromFile.id, /^dc_/);
    assert.equal(fromFile.name_slug, 'file-source');
    await hit(fromFile.configured_props.http.endpoint_url, '/one');

    // A registry key (a bundled component), named; --props from a file.
    fs.writeFileSync(path.join(dir, 'props.json'), '{"responseStatus": 202}');
    const fromKey = await cliJson(['deploy', 'http-new-requests', '--name', 'CLI hooks', '--props', '@props.json'], env, { cwd: dir });
    assert.equal(fromKey.component_key, 'http-new-requests');
    assert.equal(fromKey.name_slug, 'cli-hooks');
    assert.equal((await hit(fromKey.configured_props.http.endpoint_url, '/k')).status, 202);

    // A URL of raw code, fetched by the service; a bad URL is an error naming it.
    const fromUrl = await cliJson(['deploy', `${codeUrl}/raw/url-source.mjs`], env);
    assert.equal(fromUrl.name, 'From a URL');
    await hit(fromUrl.configured_props.http.endpoint_url, '/u');
    const badUrl = await cli(['deploy', `${codeUrl}/raw/missing.mjs`], env);
    assert.equal(badUrl.code, 1);
    assert.match(badUrl.stderr, new RegExp(`${codeUrl}/raw/missing\\.mjs answered 404`));

    // list, describe (by a unique prefix of the slug).
    const sources = await cliJson<any[]>(['list', 'sources'], env);
    assert.deepEqual(new Set(sources.map((s) => s.id)), new Set([fromFile.id, fromKey.id, fromUrl.id]));
    const described = await cliJson(['describe', 'file-so'], env);
    assert.equal(described.id, fromFile.id);
    assert.equal(described.component.key, 'cli-file-source');
    assert.equal(described.configured_props.label, 'orders');
    const text = await cli(['describe', fromFile.id], env);
    assert.match(text.stdout, /Endpoint: http:\/\/127\.0\.0\.1:\d+\/e\//);
    // An ambiguous prefix lists the matches.
    await cliJson(['deploy', 'file-source.mjs', '--props', '{"label":"twin"}', '--name', 'file-source-twin'], env, { cwd: dir });
    const ambiguous = await cli(['describe', 'file-s'], env);
    assert.equal(ambiguous.code, 1);
    assert.match(ambiguous.stderr, /"file-s" matches 2 sources; give more of the id or slug:\n/);
    assert.match(ambiguous.stderr, new RegExp(`  ${fromFile.id}  file-source\n`));
    assert.match(ambiguous.stderr, / {2}dc_\w+ {2}file-source-twin\n/);

    // events -n: the relative import's prefix is in the summaries.
    await hit(fromFile.configured_props.http.endpoint_url, '/two');
    await hit(fromFile.configured_props.http.endpoint_url, '/three');
    const events = await cliJson<any[]>(['events', 'file-source', '-n', '2'], env);
    assert.deepEqual(
      events.map((e) => e.event.path),
      ['/three', '/two'],
    );
    assert.equal(events[0].metadata.summary, '[file] orders /three');
    assert.equal((await cli(['events', fromFile.id, '-n', '101'], env)).code, 2);

    // logs
    const logs = await cliJson<any[]>(['logs', fromFile.id], env);
    assert.ok(
      logs.some((l) => l.message === 'handled /two'),
      JSON.stringify(logs),
    );

    // run
    const ran = await cliJson(['run', 'cli-hooks'], env);
    assert.equal(ran.error, null);
    assert.equal(ran.emitted.length, 1);

    // update: name, props merged, deactivate, code from a file.
    const renamed = await cliJson(['update', fromFile.id, '--name', 'Renamed', '--props', '{"label":"invoices"}'], env);
    assert.equal(renamed.name_slug, 'renamed');
    assert.equal(renamed.configured_props.label, 'invoices');
    assert.equal(renamed.configured_props.http.endpoint_url, fromFile.configured_props.http.endpoint_url);
    assert.equal((await cliJson(['update', 'renamed', '--deactivate'], env)).active, false);
    fs.writeFileSync(path.join(dir, 'common', 'prefix.mjs'), 'export const prefix = "[v2] ";\n');
    assert.equal((await cliJson(['update', 'renamed', '--code', 'file-source.mjs', '--activate'], env, { cwd: dir })).active, true);
    await hit(fromFile.configured_props.http.endpoint_url, '/four');
    assert.equal((await cliJson<any[]>(['events', 'renamed', '-n', '1'], env))[0].metadata.summary, '[v2] invoices /four');

    // events -f follows new events.
    const following = startCli(['events', 'renamed', '-n', '1', '-f', '--json'], env);
    try {
      await following.waitForLine((e) => e.event?.path === '/four', 'the latest event');
      await hit(fromFile.configured_props.http.endpoint_url, '/five');
      await following.waitForLine((e) => e.event?.path === '/five', 'the followed event');
      assert.equal(await following.interrupt(), 0);
    } finally {
      following.child.kill('SIGKILL');
    }

    // delete
    assert.deepEqual(await cliJson(['delete', 'renamed'], env), { deleted: fromFile.id, name_slug: 'renamed' });
    assert.ok(!(await cliJson<any[]>(['list', 'sources'], env)).some((s) => s.id === fromFile.id));
    assert.equal((await cli(['delete', 'renamed'], env)).code, 1);
  });

  it('creates, lists and deletes webhooks and subscriptions', async () => {
    const source = await cliJson(['deploy', 'http-new-requests', '--name', 'Hook source'], env);
    const webhook = await cliJson(['webhooks', 'create', 'http://127.0.0.1:9/receiver', '--name', 'receiver'], env);
    assert.match(webhook.id, /^wh_/);
    assert.match(webhook.signing_secret, /^whsec_/);
    assert.deepEqual(
      (await cliJson<any[]>(['webhooks', 'list'], env)).map((w) => w.name),
      ['receiver'],
    );

    // By source slug and webhook name.
    const sub = await cliJson(['subscriptions', 'create', 'hook-source', 'receiver'], env);
    assert.equal(sub.emitter_id, source.id);
    assert.equal(sub.listener_id, webhook.id);
    const onChannel = await cliJson(['subscriptions', 'create', '--emitter', source.id, '--listener', webhook.id, '--event-name', '$errors'], env);
    assert.equal(onChannel.event_name, '$errors');
    const subs = await cliJson<any[]>(['subscriptions', 'list'], env);
    assert.equal(subs.filter((s) => s.listener_id === webhook.id).length, 2);
    assert.deepEqual(await cliJson(['subscriptions', 'delete', 'hook-source', webhook.id, '--event-name', '$errors'], env), {
      deleted: { emitter_id: source.id, listener_id: webhook.id, event_name: '$errors' },
    });
    assert.equal((await spout.api('GET', '/v1/users/me/subscriptions')).json.data.filter((s: any) => s.listener_id === webhook.id).length, 1);

    assert.deepEqual(await cliJson(['webhooks', 'delete', webhook.id.slice(0, 8)], env), { deleted: webhook.id });
    assert.deepEqual((await spout.api('GET', '/v1/users/me/webhooks')).json.data, []);
    assert.deepEqual((await spout.api('GET', '/v1/users/me/subscriptions')).json.data, []);
  });

  it('publishes actions, lists components and the registry, and writes starter files', async () => {
    const published = await cliJson(['publish', 'shout.mjs'], env, { cwd: dir });
    assert.equal(published.type, 'action');
    assert.equal(published.key, 'cli-shout');
    assert.ok((await cliJson<any[]>(['list', 'components'], env)).some((c) => c.id === published.id));
    const deployAction = await cli(['deploy', 'shout.mjs'], env, { cwd: dir });
    assert.equal(deployAction.code, 1);
    assert.match(deployAction.stderr, /is an action.*spout publish/);

    const registry = await cliJson<any[]>(['list', 'components', '--registry'], env);
    const keys = registry.map((c) => c.key);
    for (const key of ['http-new-requests', 'schedule-interval', 'schedule-cron-schedule', 'data_stores-new-or-updated-records', 'http-send-request', 'formatting-parse-json']) {
      assert.ok(keys.includes(key), `${key} in ${keys.join(', ')}`);
    }
    assert.ok(
      registry.every((c) => c.bundled && c.warnings.length === 0),
      JSON.stringify(registry.filter((c) => c.warnings.length)),
    );

    // init writes files the service accepts.
    const init = tempDir('spout-init-');
    const src = await cliJson(['init', 'source', 'order-hook', '--http', '--timer', '--db'], env, { cwd: init });
    assert.equal(src.file, path.join(fs.realpathSync(init), 'order-hook', 'order-hook.mjs'));
    const deployed = await cliJson(['deploy', src.file], env);
    assert.equal(deployed.name, 'Order Hook');
    assert.ok(deployed.configured_props.http.endpoint_url);
    assert.ok(deployed.timers.timer);
    assert.equal((await hit(deployed.configured_props.http.endpoint_url, '/x')).status, 200);
    await waitFor(async () => (await spout.api('GET', `/v1/sources/${deployed.id}/event_summaries`)).json.data.length === 1, 5000, 'the starter source to emit');
    const action = await cliJson(['init', 'action', 'Tidy Text', '--http', '--db', '--dir', init], env);
    assert.equal((await cliJson(['publish', action.file], env)).key, 'tidy-text');
    const app = await cliJson(['init', 'app', 'acme', '--dir', init], env);
    assert.ok(fs.readFileSync(app.file, 'utf8').includes('app: "acme"'));
    assert.equal((await cli(['init', 'source', 'order-hook'], env, { cwd: init })).code, 2);
  });

  it('answers bad usage with 2 and failures with 1, each saying what to do', async () => {
    // Independent of each other: run at once.
    const [unknown, noArgs, badOption, badKind, noFile, nothing, noKey, help, unreachable, refused] = await Promise.all([
      cli(['frobnicate'], env),
      cli(['deploy'], env),
      cli(['list', 'sources', '--bogus'], env),
      cli(['list', 'things'], env),
      cli(['deploy', './nope.mjs'], env),
      cli(['update', 'anything'], env),
      cli(['deploy', 'no-such-key'], env),
      cli(['events', '--help'], env),
      cli(['list', 'sources', '--api-url', 'http://127.0.0.1:1', '--api-key', 'k'], env),
      cli(['list', 'sources', '--api-key', 'wrong'], env),
    ]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command "frobnicate"/);
    assert.match(noArgs.stderr, /missing what to deploy.*\n.*spout deploy --help/);
    for (const r of [noArgs, badOption, badKind, noFile, nothing]) assert.equal(r.code, 2, r.stderr);
    assert.match(nothing.stderr, /nothing to update; give --code, --files, --name, --props, --allow-read\/--allow-write, --network, --activate or --deactivate/);
    assert.equal(noKey.code, 1);
    assert.match(noKey.stderr, /no component has that key.*spout list components --registry/);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /-n, --count N/);
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, /cannot reach the Spout service at http:\/\/127\.0\.0\.1:1.*spout serve/);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /refused the API key \(from --api-key\)/);
  });
});
