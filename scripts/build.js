// Builds every bundle into dist/: the service and CLI, the component host, the Electron main
// process and preload, and the renderer.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

/** Builds all bundles; `quiet` silences the summary line. */
export async function buildAll({ quiet = false } = {}) {
  const started = Date.now();
  const node = { bundle: true, platform: 'node', target: 'node20', sourcemap: 'linked', packages: 'external', logLevel: 'warning', define: { 'process.env.SPOUT_VERSION': JSON.stringify(version) } };
  await Promise.all([
    // The CLI is split: each command's code (and `serve`'s whole runtime) loads only when that command
    // runs. Chunks stay in dist/ itself: runtime/lib/paths.ts finds the worker beside the running module.
    build({ ...node, format: 'esm', entryPoints: { cli: 'runtime/cli/main.ts' }, outdir: dist, absWorkingDir: root, splitting: true, chunkNames: 'cli-[name]-[hash]', metafile: true }).then(dropStaleChunks),
    build({ ...node, format: 'esm', entryPoints: { 'delivery-worker': 'runtime/delivery/worker/delivery-worker.ts', runtime: 'runtime/index.ts' }, outdir: dist, absWorkingDir: root, splitting: false }),
    // The component host runs under Node's permission model, which lets it read its own script and
    // little else: one self-contained CommonJS file.
    build({ ...node, format: 'cjs', packages: undefined, entryPoints: { host: 'runtime/sandbox/child/host-main.ts' }, outfile: path.join(dist, 'host.cjs'), absWorkingDir: root }),
    build({ ...node, format: 'esm', entryPoints: { main: 'main/main.ts' }, outdir: dist, absWorkingDir: root, external: ['electron'] }),
    // Sandboxed preloads must be CommonJS.
    build({ ...node, format: 'cjs', entryPoints: { preload: 'main/preload.ts' }, outfile: path.join(dist, 'preload.cjs'), absWorkingDir: root, external: ['electron'] }),
    build({
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      entryPoints: { app: 'renderer/src/main.tsx' },
      outdir: path.join(dist, 'renderer', 'assets'),
      absWorkingDir: root,
      sourcemap: 'linked',
      minify: true,
      jsx: 'automatic',
      loader: { '.css': 'css' },
      logLevel: 'warning',
      define: { 'process.env.NODE_ENV': '"production"' },
    }),
    // The code editor (monaco) is its own bundle, loaded when an editor is first shown, with its
    // web workers beside it (MonacoEnvironment.getWorkerUrl in renderer/src/ui/code-editor/monaco-editor.ts).
    build({
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      entryPoints: {
        editor: 'renderer/src/ui/code-editor/monaco-editor.ts',
        'editor.worker': 'node_modules/monaco-editor/esm/vs/editor/editor.worker.js',
        'ts.worker': 'node_modules/monaco-editor/esm/vs/language/typescript/ts.worker.js',
      },
      outdir: path.join(dist, 'renderer', 'assets'),
      absWorkingDir: root,
      minify: true,
      loader: { '.css': 'css', '.ttf': 'file' },
      assetNames: '[name]-[hash]',
      logLevel: 'error',
    }),
  ]);
  fs.copyFileSync(path.join(root, 'renderer', 'index.html'), path.join(dist, 'renderer', 'index.html'));
  fs.writeFileSync(path.join(dist, 'build-stamp'), String(Date.now()));
  if (!quiet) console.log(`built dist/ in ${Date.now() - started} ms`);
}

/** Removes CLI chunks an earlier build wrote that this one did not (their names carry a content hash). */
function dropStaleChunks(result) {
  const fresh = new Set(Object.keys(result.metafile.outputs).map((f) => path.basename(f)));
  for (const f of fs.readdirSync(dist)) if (/^cli-.+-[A-Z0-9]{8}\.js(\.map)?$/.test(f) && !fresh.has(f)) fs.rmSync(path.join(dist, f), { force: true });
}

/** Newest modification time among the sources a build reads. */
export function newestSource() {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  for (const dir of ['runtime', 'main', 'renderer']) walk(path.join(root, dir));
  return newest;
}

/** Builds unless dist/ is newer than every source file. */
export async function ensureBuilt() {
  let stamp = 0;
  try {
    stamp = fs.statSync(path.join(dist, 'build-stamp')).mtimeMs;
  } catch {
    // never built
  }
  if (stamp < newestSource()) await buildAll({ quiet: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildAll();
}
