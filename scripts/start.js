// `npm start`: the desktop window where Electron's binary is installed; otherwise the same
// service headless, with the UI link printed (and opened when a desktop is available).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './build.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
await ensureBuilt();

function electronBinary() {
  try {
    const require = createRequire(import.meta.url);
    const bin = require('electron'); // the package exports the binary's path, and throws if it is missing
    return typeof bin === 'string' && fs.existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

const bin = process.env.SPOUT_HEADLESS ? null : electronBinary();
if (bin) {
  const child = spawn(bin, [path.join(root, 'dist', 'main.js')], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log('Electron is not installed here (`npm run electron:install` fetches it); running headless with the UI in your browser.');
  const child = spawn(process.execPath, [path.join(root, 'dist', 'cli.js'), 'serve', ...process.argv.slice(2)], {
    stdio: ['inherit', 'pipe', 'inherit'],
    // Messages that name an option say how to pass it through npm.
    env: { ...process.env, SPOUT_LAUNCHER: process.env.npm_lifecycle_event === 'start' ? 'npm start --' : 'node scripts/start.js' },
  });
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    const ui = /^UI: (\S+)$/m.exec(String(chunk));
    if (ui && (process.env.DISPLAY || process.platform !== 'linux') && !process.env.CI) {
      const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
      spawn(opener, [ui[1]], { stdio: 'ignore', detached: true }).on('error', () => undefined).unref();
    }
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}
