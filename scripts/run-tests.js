// Runs every test file under test/ with Node's test runner (TypeScript through tsx).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const files = [];
const walk = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (entry.name.endsWith('.test.ts')) files.push(full);
  }
};
walk('test');
const filter = process.argv.slice(2);
const selected = filter.length ? files.filter((f) => filter.some((x) => f.includes(x))) : files;
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...selected.sort()], { stdio: 'inherit' });
process.exit(result.status ?? 1);
