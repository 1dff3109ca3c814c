// Module hooks of a `spout test` process (registered by register-test-hooks.ts): the bare
// `spout/testing` is the running Spout's own dist/testing.js wherever the test file is (a
// component's folder has no node_modules), and TypeScript files load as esbuild strips their types.
import fs from 'node:fs';
import type { InitializeHook, LoadHook, ResolveHook } from 'node:module';
import { fileURLToPath } from 'node:url';

/** What register-test-hooks.ts passes: the URL of the running Spout's dist/testing.js. */
export interface TestHooksData {
  testingUrl: string;
}

/** TypeScript as ES modules: `.ts` and `.mts`. */
export const TYPESCRIPT_FILE = /\.m?ts$/;
let testingUrl: string | null = null;

/** Takes the URL `spout/testing` resolves to. */
export const initialize: InitializeHook<TestHooksData> = (data) => {
  testingUrl = data.testingUrl;
};

/** `spout/testing` → the running Spout's; a TypeScript file's `./x.js` (or `./x`) → `./x.ts` when only that exists, as tsc resolves it. */
export const resolve: ResolveHook = async (specifier, context, nextResolve) => {
  if (specifier === 'spout/testing' && testingUrl) return { url: testingUrl, format: 'module', shortCircuit: true };
  try {
    return await nextResolve(specifier, context);
  } catch (err) {
    const parent = context.parentURL;
    if ((err as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND' || !parent || !TYPESCRIPT_FILE.test(parent) || !specifier.startsWith('.')) throw err;
    const ts = new URL(/\.m?js$/.test(specifier) ? specifier.replace(/\.(m?)js$/, '.$1ts') : `${specifier}.ts`, parent);
    if (!fs.existsSync(fileURLToPath(ts))) throw err;
    return { url: ts.href, shortCircuit: true };
  }
};

/** Loads a `.ts` file as an ES module with its types stripped (esbuild, loaded only then), its source map inline. */
export const load: LoadHook = async (url, context, nextLoad) => {
  if (!url.startsWith('file:') || !TYPESCRIPT_FILE.test(new URL(url).pathname)) return nextLoad(url, context);
  const file = fileURLToPath(url);
  const { transform } = await import('esbuild');
  const { code } = await transform(await fs.promises.readFile(file, 'utf8'), { loader: 'ts', target: `node${process.versions.node}`, sourcemap: 'inline', sourcefile: file });
  return { format: 'module', source: code, shortCircuit: true };
};
