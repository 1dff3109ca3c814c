import { createHash } from 'node:crypto';
import { build, type Message } from 'esbuild';
import { platformShims } from '../paths';
import type { PackageCache, ProgressListener } from './packages';

/** A problem found in a component definition or its code, with where it is. */
export interface ComponentProblem {
  path: string;
  message: string;
}

/** Thrown when a component cannot be loaded or fails validation; carries every problem found. */
export class ComponentError extends Error {
  constructor(readonly problems: ComponentProblem[]) {
    super(problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('; '));
    this.name = 'ComponentError';
  }
}

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
 * sandbox. With a package cache, imported packages are bundled in (installed first if need be);
 * without one, bare imports stay as `require` calls, resolved inside the worker.
 */
export async function bundleComponent(source: string, filename = 'component.mjs', options: BundleOptions = {}): Promise<Bundle> {
  const loader = /\.(c|m)?tsx?$/.test(filename) ? 'ts' : 'js';
  try {
    const result = await build({
      stdin: { contents: source, loader, sourcefile: filename, resolveDir: process.cwd() },
      bundle: true,
      // The cache's plugin decides per import (builtins stay external); the worker can then
      // run the bundle without requiring any package.
      ...(options.packages ? { plugins: [options.packages.plugin({ onProgress: options.onProgress })] } : { packages: 'external' as const }),
      // Offline and unchanged: registry code imports these, and gets ours.
      alias: platformShims,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      write: false,
      logLevel: 'silent',
      sourcemap: 'inline',
    });
    const out = result.outputFiles[0];
    if (!out) throw new ComponentError([{ path: '', message: 'the bundler produced no output' }]);
    return { code: out.text, codeHash: createHash('sha256').update(source).digest('hex') };
  } catch (err) {
    throw asComponentError(err, filename);
  }
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
