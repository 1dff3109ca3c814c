#!/usr/bin/env node
// The `spout` command. In a checkout it (re)builds dist/ first when the sources are newer.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (fs.existsSync(path.join(root, 'scripts', 'build.js'))) {
  const { ensureBuilt } = await import('../scripts/build.js');
  await ensureBuilt();
}
await import('../dist/cli.js');
