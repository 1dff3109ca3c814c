import fs from 'node:fs';
import path from 'node:path';
import type { BundledFile, FileBundler } from '../../components/bundle-file';
import type { ComponentView } from '../../contract/component-api';
import { ComponentError } from '../../lib/error-kinds';
import type { ApiClient } from '../../remote/api-client';
import { displayPath } from './output';
import { UsageError } from './usage';

/** What `spout deploy` was given: a file, a URL of raw code, or a registry (or saved) key. */
export type ComponentRef = { kind: 'file'; file: string } | { kind: 'url'; url: string } | { kind: 'key'; key: string };

const CODE_FILE = /\.(mjs|cjs|js|ts|mts|cts)$/;

export function classify(ref: string): ComponentRef {
  if (/^https?:\/\//i.test(ref)) return { kind: 'url', url: ref };
  if (fs.existsSync(ref)) {
    if (fs.statSync(ref).isDirectory()) throw new UsageError(`${ref} is a folder; give the component's file (e.g. ${path.join(ref, `${path.basename(ref)}.mjs`)})`);
    return { kind: 'file', file: ref };
  }
  if (CODE_FILE.test(ref) || ref.includes('/') || ref.includes(path.sep)) throw new UsageError(`${ref}: no such file`);
  return { kind: 'key', key: ref };
}

/** A bundling failure: the problems with file:line:column (relative under the current folder, else absolute). */
export class BundleError extends Error {
  constructor(readonly problems: string[]) {
    super(`the component does not build:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

/** Bundles a component file with its relative imports (bare imports are left for the service); with `bundler`, by its rebuild. */
export async function bundle(file: string, bundler?: FileBundler): Promise<BundledFile> {
  const { bundleFile } = await import('../../components/bundle-file');
  try {
    const bundled = bundler ? await bundler.bundle() : await bundleFile(file);
    // Without relative imports the service needs nothing inlined: it keeps the file as written, so
    // the code every client opens (GET /v1/sources/{id}) is the user's own, not bundler output.
    return bundled.inputs.length === 1 ? { ...bundled, code: await fs.promises.readFile(path.resolve(file), 'utf8') } : bundled;
  } catch (err) {
    if (!(err instanceof ComponentError)) throw err;
    const base = path.dirname(path.resolve(file));
    throw new BundleError(
      err.problems.map((p) => {
        const m = /^(.*?):(\d+):(\d+)$/.exec(p.path);
        const where = m ? `${displayPath(path.resolve(base, m[1] as string))}:${m[2]}:${m[3]}` : p.path || displayPath(file);
        return `${where}: ${p.message}`;
      }),
    );
  }
}

/** A bundler of `file` for saves one after another (`spout dev`): each rebuild reads and parses only what changed. */
export async function fileBundler(file: string): Promise<FileBundler> {
  const { FileBundler } = await import('../../components/bundle-file');
  return new FileBundler(file);
}

/** Saves a file's code as a component (validated by the service): its id and props. */
export async function saveFile(client: ApiClient, file: string): Promise<{ component: ComponentView; bundled: BundledFile }> {
  const bundled = await bundle(file);
  const { data } = await client.post<{ data: ComponentView }>('/v1/components', { component_code: bundled.code, component_filename: bundled.filename });
  return { component: data, bundled };
}
