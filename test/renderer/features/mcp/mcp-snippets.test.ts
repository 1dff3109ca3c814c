// The text Settings → MCP gives to paste: the stdio command line reads back, through a real shell,
// as the command and arguments the service named; the scripts are valid JavaScript modules.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { commandLine, scriptText } from '../../../../renderer/src/features/mcp/mcp-snippets';
import type { McpSnippets } from '../../../../runtime/contract/mcp-api';

/** The words bash makes of a line (with its environment assignments), one per line. */
const bashWords = (line: string) =>
  execFileSync('bash', ['-c', `set -- ${line}; for w; do printf '%s\\n' "$w"; done`], { encoding: 'utf8' })
    .split('\n')
    .slice(0, -1);

const snippets = (env?: Record<string, string>): McpSnippets => ({
  stdio: { command: '/opt/node 20/bin/node', args: ["/home/o'neil/spout/bin/spout.js", 'mcp', '--data-dir', '/home/me/.config/spout $x'], ...(env ? { env } : {}) },
  http: { url: 'http://127.0.0.1:7620/mcp', headers: { Authorization: 'Bearer <API key: DATA_DIR/api-key>' } },
  clients: [],
});

describe('MCP snippets', () => {
  it('quotes the stdio command so a shell reads back the same words', () => {
    const { stdio } = snippets();
    assert.deepEqual(bashWords(commandLine(stdio)), [stdio.command, ...stdio.args]);
    assert.equal(commandLine({ command: '/usr/bin/node', args: ['/srv/spout.js', 'mcp'] }), '/usr/bin/node /srv/spout.js mcp', 'plain words stay unquoted');
  });

  it('puts the environment a service without a kept key needs before the command', () => {
    const line = commandLine(snippets({ SPOUT_API_KEY: '<API key>' }).stdio);
    assert.match(line, /^SPOUT_API_KEY='<API key>' '\/opt\/node 20\/bin\/node' /);
  });

  it('writes scripts that are valid modules naming the service exactly', () => {
    for (const transport of ['stdio', 'http'] as const) {
      const text = scriptText(snippets({ SPOUT_API_KEY: '<API key>' }), transport);
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spout-snippet-')), 'spout-tools.mjs');
      fs.writeFileSync(file, text);
      // Parsed as a module, not run (it would connect).
      assert.doesNotThrow(() => execFileSync(process.execPath, ['--check', file], { stdio: 'pipe' }), transport);
      fs.rmSync(path.dirname(file), { recursive: true });
      assert.ok(text.includes(transport === 'stdio' ? JSON.stringify("/home/o'neil/spout/bin/spout.js") : '"http://127.0.0.1:7620/mcp"'), text);
      assert.ok(!text.includes('<API key>'), 'the key placeholder is read from the environment instead');
    }
  });
});
