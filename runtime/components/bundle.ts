import { createHash } from 'node:crypto';
import type { Message, Metafile } from 'esbuild';
import { ComponentError } from '../lib/error-kinds';
import type { PackageCache, ProgressListener } from './packages';
import { platformPlugin } from './platform-packages';

/** The CommonJS bundle the sandbox evaluates, and the hash identifying the source text. */
export interface Bundle {
  code: string;
  codeHash: string;
}

/** What bundling may use beyond the source text. */
export interface BundleOptions {
  /** Where bare imports are installed and bundled from; without it they stay `require` calls. */
  packages?: PackageCache;
  /** Receives progress lines of package installs this bundle waits for. */
  onProgress?: ProgressListener;
}

/**
 * Bundles component source text (ESM, CommonJS or TypeScript) into one CommonJS module for the
 * sandbox. Packages are not bundled in: with a package cache, each bare import is installed (if
 * need be) and left as a `require` of its file, which the sandbox loads at run time
 * (sandbox/component-require.ts); without one, bare imports stay as they are. The platform
 * packages come from Spout's own install.
 */
export async function bundleComponent(source: string, filename = 'component.mjs', options: BundleOptions = {}): Promise<Bundle> {
  const loader = /\.(c|m)?tsx?$/.test(filename) ? 'ts' : 'js';
  const neutral = filename.replace(/\.m([jt]s)$/, '.$1');
  try {
    // Loaded when first needed: a test process whose bundles are all cached never loads it.
    const { build } = await import('esbuild');
    const result = await build({
      // Not `.mjs`: esbuild would then give an imported module's whole exports as its default
      // (Node's rule for CommonJS), where component-require.ts shapes ES modules and CommonJS
      // ones as Node's `import` does.
      stdin: { contents: source, loader, sourcefile: neutral, resolveDir: process.cwd() },
      bundle: true,
      plugins: [platformPlugin(), ...(options.packages ? [options.packages.plugin({ onProgress: options.onProgress })] : [])],
      ...(options.packages ? {} : { packages: 'external' as const }),
      // Resolved as Node resolves them (the files are loaded by Node): no bundler-only entry points.
      mainFields: ['main'],
      conditions: [],
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      write: false,
      logLevel: 'silent',
      sourcemap: 'inline',
      metafile: true,
    });
    const out = result.outputFiles[0];
    if (!out) throw new ComponentError([{ path: '', message: 'the bundler produced no output' }]);
    const text = esModuleOnly(result.metafile, source) ? strictBundle(out.text) : out.text;
    return { code: neutral === filename ? text : renameMapSource(text, neutral, filename), codeHash: createHash('sha256').update(source).digest('hex') };
  } catch (err) {
    const problem = asComponentError(err, filename);
    // Messages name the file as the user knows it.
    if (problem instanceof ComponentError && neutral !== filename) {
      throw new ComponentError(problem.problems.map((p) => (p.path.startsWith(`${neutral}:`) ? { ...p, path: filename + p.path.slice(neutral.length) } : p)));
    }
    throw problem;
  }
}

/**
 * Whether the source is ES modules only: each input esbuild read is one, and none is CommonJS
 * inlined into one by `bundleFile` (esbuild's `__commonJS` wrapper). ES modules are strict code,
 * as Pipedream runs them (a loop over an undeclared name throws there), but the CommonJS bundle
 * esbuild makes of them is not; CommonJS is left sloppy, as Node runs it.
 */
function esModuleOnly(metafile: Metafile | undefined, source: string): boolean {
  const formats = Object.values(metafile?.inputs ?? {}).map((input) => input.format);
  return formats.includes('esm') && !formats.includes('cjs') && !/\bvar __commonJS = /.test(source);
}

/** The bundle as strict code: the directive starts its first line, so the source map's lines stay as they are. */
function strictBundle(code: string): string {
  return `"use strict";${code}`;
}

/** Names the user's file (`x.mjs`) in the bundle's inline source map where esbuild was given its neutral name (`x.js`), so stacks point at it. */
function renameMapSource(code: string, neutral: string, filename: string): string {
  const marker = '//# sourceMappingURL=data:application/json;base64,';
  const at = code.lastIndexOf(marker);
  if (at === -1) return code;
  const map = JSON.parse(Buffer.from(code.slice(at + marker.length).trim(), 'base64').toString('utf8')) as { sources?: string[] };
  map.sources = map.sources?.map((s) => (s === neutral ? filename : s));
  return `${code.slice(0, at)}${marker}${Buffer.from(JSON.stringify(map)).toString('base64')}\n`;
}

/** Turns an esbuild failure into a ComponentError with each message's file:line:column; other errors pass through. */
export function asComponentError(err: unknown, fallbackPath: string): unknown {
  const errors = (err as { errors?: Message[] }).errors;
  if (!errors) return err;
  return new ComponentError(
    errors.map((e) => ({
      path: e.location ? `${e.location.file}:${e.location.line}:${e.location.column + 1}` : fallbackPath,
      message: e.text,
    })),
  );
}
