import path from 'node:path';
import { build } from 'esbuild';
import { asComponentError, ComponentError } from './bundle';

/** A component file with its relative imports inlined: the text to send as `component_code`. */
export interface BundledFile {
  code: string;
  /** The entry's base name (picks the loader and names the file in stack traces). */
  filename: string;
  /** Absolute paths of every local file that went in (the entry and its relative imports), to watch. */
  inputs: string[];
}

/**
 * Inlines a component file's relative imports (app files, `common/` spreads) into one CommonJS module.
 * Bare imports, pinned ones included (`axios@1.6.0`), stay imports: the service resolves them.
 */
export async function bundleFile(entry: string): Promise<BundledFile> {
  const absolute = path.resolve(entry);
  try {
    const result = await build({
      entryPoints: [absolute],
      bundle: true,
      packages: 'external',
      // CommonJS, as the service bundles to: a `require` of a package in a CommonJS file stays a
      // plain `require` the service resolves (ESM output would hide it behind esbuild's helper).
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      write: false,
      // Stack traces point at the user's own files: the service's bundling carries this map on.
      sourcemap: 'inline',
      sourcesContent: false,
      metafile: true,
      logLevel: 'silent',
      absWorkingDir: path.dirname(absolute),
    });
    const out = result.outputFiles[0];
    if (!out) throw new ComponentError([{ path: entry, message: 'the bundler produced no output' }]);
    const inputs = Object.keys(result.metafile.inputs).map((p) => path.resolve(path.dirname(absolute), p));
    return { code: out.text, filename: path.basename(absolute), inputs };
  } catch (err) {
    throw asComponentError(err, entry);
  }
}
