// `@pipedream/platform` and `@pipedream/types` are dependencies of Spout itself: components get
// Spout's installed versions (loaded at run time from Spout's install, which the component host
// may read), whatever version they pin, so they work offline and with no install step.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'esbuild';
import { IMPORT_PREFIX, REQUIRE_PREFIX } from '../sandbox/child/component-require';

const spoutRequire = createRequire(import.meta.url);

/** `@pipedream/platform` or `@pipedream/types`, pinned or not, with an optional subpath. */
const PLATFORM_IMPORT = /^(@pipedream\/(?:platform|types))(?:@[^/]*)?(\/.*)?$/;

/**
 * What a component host must read for the platform packages: the `node_modules` folder of Spout's
 * install that holds them and their dependencies (axios, io-ts…), which Node resolves from there.
 */
export function platformReadPaths(): string[] {
  const manifest = spoutRequire.resolve('@pipedream/platform/package.json');
  return [path.resolve(path.dirname(manifest), '..', '..')];
}

/** Whether a bare import names one of the platform packages Spout provides. */
export function isPlatformImport(specifier: string): boolean {
  return PLATFORM_IMPORT.test(specifier);
}

/** An esbuild plugin resolving imports of the platform packages to Spout's install, left as run-time requires. */
export function platformPlugin(): Plugin {
  return {
    name: 'spout-platform-packages',
    setup(build) {
      build.onResolve({ filter: PLATFORM_IMPORT }, (args) => {
        const [, name, subpath = ''] = PLATFORM_IMPORT.exec(args.path) as RegExpExecArray;
        let file: string;
        try {
          file = spoutRequire.resolve(`${name}${subpath}`);
        } catch {
          return { errors: [{ text: `"${args.path}": ${name} has no "${subpath.slice(1)}"; import from "${name}" itself` }] };
        }
        return { path: `${args.kind === 'require-call' ? REQUIRE_PREFIX : IMPORT_PREFIX}${file}`, external: true };
      });
    },
  };
}
