// Builds every bundle into dist/: the service and CLI, the component host, the Electron main
// process and preload, and the renderer.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

/**
 * zod's `locales` namespace (every language's messages, a third of testing.js) left empty: Spout
 * never calls `z.config(z.locales.xx())`, and English, zod's default, is imported on its own.
 */
const withoutZodLocales = {
  name: 'without-zod-locales',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (args.importer.includes(`${path.sep}zod${path.sep}`) ? { path: 'zod-locales', namespace: 'empty' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/** Builds all bundles; `quiet` silences the summary line. */
export async function buildAll({ quiet = false } = {}) {
  const started = Date.now();
  // Loaded here, not at the top: every `spout` command imports this file to check dist/ is fresh.
  const { build } = await import('esbuild');
  const node = { bundle: true, platform: 'node', target: 'node20', sourcemap: 'linked', packages: 'external', logLevel: 'warning', define: { 'process.env.SPOUT_VERSION': JSON.stringify(version) } };
  const assets = path.join(dist, 'renderer', 'assets');
  const results = await Promise.all([
    // The CLI is split: each command's code (and `serve`'s whole runtime) loads only when that command
    // runs. Chunks stay in dist/ itself: runtime/lib/paths.ts finds the worker beside the running module.
    build({ ...node, format: 'esm', entryPoints: { cli: 'runtime/cli/main.ts' }, outdir: dist, absWorkingDir: root, splitting: true, chunkNames: 'cli-[name]-[hash]', metafile: true }).then(dropStaleChunks),
    build({ ...node, format: 'esm', entryPoints: { 'delivery-worker': 'runtime/delivery/worker/delivery-worker.ts', runtime: 'runtime/index.ts' }, outdir: dist, absWorkingDir: root, splitting: false }),
    // `spout/testing` (package.json exports): the API a user's tests import, with its types; and the
    // `--import` of `spout test`'s processes with the module hooks it registers. Its packages are
    // bundled in (docs/performance.md, "spout test"): a test process imports one file, not each
    // package's modules through the hooks' thread. esbuild stays out (its binary sits beside it)
    // and is loaded only to bundle what the bundle cache does not hold.
    build({
      ...node,
      packages: undefined,
      external: ['esbuild'],
      plugins: [withoutZodLocales],
      // The CommonJS packages bundled in require Node's builtins.
      banner: { js: "import { createRequire as spoutCreateRequire } from 'node:module'; const require = spoutCreateRequire(import.meta.url);" },
      format: 'esm',
      entryPoints: { testing: 'runtime/testing/spout-testing.ts', 'testing-register': 'runtime/testing/register-test-hooks.ts', 'testing-hooks': 'runtime/testing/test-loader-hooks.ts', 'testing-runner': 'runtime/testing/test-runner-main.ts' },
      outdir: dist,
      absWorkingDir: root,
      splitting: false,
    }).then(writeTestingTypes),
    // The component host runs under Node's permission model, which lets it read its own script and
    // little else: one self-contained CommonJS file.
    build({ ...node, format: 'cjs', packages: undefined, entryPoints: { host: 'runtime/sandbox/child/host-main.ts' }, outfile: path.join(dist, 'host.cjs'), absWorkingDir: root }),
    build({ ...node, format: 'esm', entryPoints: { main: 'main/main.ts' }, outdir: dist, absWorkingDir: root, external: ['electron'] }),
    // Sandboxed preloads must be CommonJS.
    build({ ...node, format: 'cjs', entryPoints: { preload: 'main/preload.ts' }, outfile: path.join(dist, 'preload.cjs'), absWorkingDir: root, external: ['electron'] }),
    // The renderer's files carry a hash of their content in their names, so the service can tell
    // browsers to keep them for good (runtime/http/ui-routes.ts); index.html names the current ones.
    build({
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      entryPoints: { app: 'renderer/src/main.tsx' },
      outdir: assets,
      entryNames: '[name]-[hash]',
      absWorkingDir: root,
      sourcemap: 'linked',
      minify: true,
      jsx: 'automatic',
      loader: { '.css': 'css' },
      logLevel: 'warning',
      metafile: true,
      define: { 'process.env.NODE_ENV': '"production"' },
    }),
    // The code editor (monaco) is its own bundle, loaded when an editor is first shown, with its
    // web workers beside it (their URLs come from index.html, see renderer/src/ui/code-editor/asset-urls.ts).
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
      outdir: assets,
      entryNames: '[name]-[hash]',
      absWorkingDir: root,
      minify: true,
      loader: { '.css': 'css', '.ttf': 'file' },
      assetNames: '[name]-[hash]',
      logLevel: 'error',
      metafile: true,
    }),
  ]);
  const [app, editor] = results.slice(-2);
  await writeRendererFiles([app.metafile, editor.metafile]);
  fs.writeFileSync(path.join(dist, 'build-stamp'), String(Date.now()));
  if (!quiet) console.log(`built dist/ in ${Date.now() - started} ms`);
}

/** Files of the renderer that are compressed for the service to send (not source maps). */
const COMPRESSED = /\.(js|css|ttf|svg|json)$/;

/**
 * Writes index.html naming this build's hashed files (and the editor's, for the app to load when
 * needed), a gzip and a brotli copy of each file beside it (the service sends the one a browser
 * takes), and removes the files of earlier builds.
 */
async function writeRendererFiles(metafiles) {
  const assets = path.join(dist, 'renderer', 'assets');
  const outputs = metafiles.flatMap((m) => Object.entries(m.outputs));
  const url = (file) => `/assets/${path.basename(file)}`;
  const entry = (name, ext) => {
    const found = outputs.find(([file, o]) => (o.entryPoint || o.cssBundle || ext === '.css') && path.basename(file).startsWith(`${name}-`) && file.endsWith(ext) && !file.endsWith('.map'));
    if (!found) throw new Error(`build: no ${name}${ext} among the renderer's outputs`);
    return url(found[0]);
  };
  const names = { app: entry('app', '.js'), appCss: entry('app', '.css'), editor: entry('editor', '.js'), editorCss: entry('editor', '.css'), editorWorker: entry('editor.worker', '.js'), tsWorker: entry('ts.worker', '.js') };
  const { app, appCss, ...editor } = names;
  // A data block, not a script: the CSP (script-src 'self') does not run it, the app reads it.
  const html = fs
    .readFileSync(path.join(root, 'renderer', 'index.html'), 'utf8')
    .replace('/assets/app.css', appCss)
    .replace('/assets/app.js', app)
    .replace('</head>', `  <script type="application/json" id="spout-assets">${JSON.stringify(editor)}</script>\n  </head>`);
  fs.writeFileSync(path.join(dist, 'renderer', 'index.html'), html);
  const fresh = new Set(outputs.map(([file]) => path.basename(file)));
  await Promise.all(
    [...fresh]
      .filter((f) => COMPRESSED.test(f))
      .map(async (f) => {
        const full = path.join(assets, f);
        // A hashed name's content never changes: copies made by an earlier build stand.
        if (fs.existsSync(`${full}.br`) && fs.existsSync(`${full}.gz`)) return;
        const data = await fs.promises.readFile(full);
        const [br, gz] = await Promise.all([brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }), gzip(data, { level: 9 })]);
        await Promise.all([fs.promises.writeFile(`${full}.br`, br), fs.promises.writeFile(`${full}.gz`, gz)]);
      }),
  );
  for (const f of fs.readdirSync(assets)) if (!fresh.has(f.replace(/\.(br|gz)$/, ''))) fs.rmSync(path.join(assets, f), { force: true });
}

/** Writes dist/testing.d.ts: the declarations of runtime/testing/public-api.ts, which imports nothing, and of the functions spout-testing.ts exports. */
async function writeTestingTypes() {
  const { default: ts } = await import('typescript');
  const source = fs.readFileSync(path.join(root, 'runtime', 'testing', 'public-api.ts'), 'utf8');
  const { outputText, diagnostics } = ts.transpileDeclaration(source, { fileName: 'public-api.ts', compilerOptions: { strict: true } });
  if (diagnostics?.length) throw new Error(`build: runtime/testing/public-api.ts: ${diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')).join('; ')}`);
  fs.writeFileSync(path.join(dist, 'testing.d.ts'), outputText);
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
