// `npm start`: the desktop window where Electron's binary is installed; otherwise the same
// service headless, with the UI link printed (and opened when a desktop is available). The child
// never outlives this script, nor this script its parent.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './build.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The process that started this script, before a build that may take seconds. */
const parent = process.ppid;
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
// The child gets a process group of its own, so a signal reaches it once, passed on by this script
// (a terminal's Ctrl-C would reach it too, and a second SIGINT stops the service without waiting).
// Descriptor 3 is its lifeline: closed by the kernel however this script ends, a `kill -9` included,
// it stops the child (runtime/lib/launcher-lifeline.ts).
const own = { detached: process.platform !== 'win32', env: { ...process.env, SPOUT_LIFELINE_FD: '3' } };
if (bin) {
  tie(spawn(bin, [path.join(root, 'dist', 'main.js')], { ...own, stdio: ['inherit', 'inherit', 'inherit', 'pipe'] }));
} else {
  console.log('Electron is not installed here (`npm run electron:install` fetches it); running headless with the UI in your browser.');
  const child = spawn(process.execPath, [path.join(root, 'dist', 'cli.js'), 'serve', ...process.argv.slice(2)], {
    ...own,
    stdio: ['inherit', 'pipe', 'inherit', 'pipe'],
    // Messages that name an option say how to pass it through npm.
    env: { ...own.env, SPOUT_LAUNCHER: process.env.npm_lifecycle_event === 'start' ? 'npm start --' : 'node scripts/start.js' },
  });
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    const ui = /^UI: (\S+)$/m.exec(String(chunk));
    if (ui && (process.env.DISPLAY || process.platform !== 'linux') && !process.env.CI) {
      const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
      spawn(opener, [ui[1]], { stdio: 'ignore', detached: true })
        .on('error', () => undefined)
        .unref();
    }
  });
  tie(child);
}

/**
 * Passes SIGINT, SIGTERM and SIGHUP on to the child, stops it when this script's parent is gone,
 * and exits with it. The parent check is for `npm start`: npm passes its SIGTERM to the `sh -c` it
 * runs this script under, which dies of it without passing it on; and a parent killed outright
 * sends nothing.
 */
function tie(child) {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  const watch = setInterval(() => {
    if (!parentGone(parent)) return;
    clearInterval(watch);
    child.kill('SIGTERM');
  }, 250);
  watch.unref();
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0)));
}

/** Whether the process that started this script has ended: this one was re-parented (POSIX), or that pid is gone (Windows keeps the old ppid). */
function parentGone(parent) {
  if (process.ppid !== parent) return true;
  try {
    process.kill(parent, 0);
    return false;
  } catch (err) {
    return err.code === 'ESRCH';
  }
}
