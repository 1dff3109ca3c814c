// The desktop app's own binary cannot run as Node (its RunAsNode fuse is off), so component hosts
// run with the system's Node, found on PATH as npm (which installs their packages) is.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The oldest Node whose permission model component hosts rely on. */
const MINIMUM = [20, 19] as const;

/** Runs `node --version`; injectable for tests. */
export type VersionOf = (file: string) => string;

const versionOf: VersionOf = (file) => execFileSync(file, ['--version'], { encoding: 'utf8', timeout: 10_000, windowsHide: true }).trim();

/**
 * The first `node` on `PATH` that is new enough, or an error message saying what to install.
 * `SPOUT_NODE` names one explicitly.
 */
export function findNode(env: NodeJS.ProcessEnv = process.env, platform: string = process.platform, version: VersionOf = versionOf): { path: string } | { problem: string } {
  const names = platform === 'win32' ? ['node.exe'] : ['node'];
  const candidates = env.SPOUT_NODE
    ? [env.SPOUT_NODE]
    : (env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .flatMap((dir) => names.map((n) => path.join(dir, n)));
  const tooOld: string[] = [];
  for (const file of candidates) {
    if (!fs.existsSync(file)) continue;
    let v: string;
    try {
      v = version(file);
    } catch {
      continue;
    }
    const [major = 0, minor = 0] = v.replace(/^v/, '').split('.').map(Number);
    if (major > MINIMUM[0] || (major === MINIMUM[0] && minor >= MINIMUM[1])) return { path: file };
    tooOld.push(`${file} (${v})`);
  }
  const need = `Node.js ${MINIMUM.join('.')} or newer`;
  return {
    problem: tooOld.length
      ? `Spout runs components with ${need}; found only ${tooOld.join(', ')}. Install a newer Node.js (nodejs.org), or name one with SPOUT_NODE=/path/to/node`
      : `Spout runs components with ${need}, which was not found on PATH. Install Node.js (nodejs.org), or name it with SPOUT_NODE=/path/to/node`,
  };
}
