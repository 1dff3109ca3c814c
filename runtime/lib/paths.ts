import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Folder holding the built bundles (worker, renderer). The runtime is bundled into `dist/`, so
 * there it is this module's own folder; when tests run the TypeScript sources (runtime/lib) it is
 * `../../dist`.
 */
export const distDir = path.basename(here) === 'lib' && path.basename(path.dirname(here)) === 'runtime' ? path.join(here, '..', '..', 'dist') : here;

/**
 * Entry script of a component host process (CommonJS: it must load without reading package.json).
 * In the desktop package it is unpacked beside app.asar, as a host reads real files only.
 */
export const hostScript = path.join(distDir, 'host.cjs').replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`);

/** The `--import` of every `spout test` process: it registers the test module hooks (runtime/testing/register-test-hooks.ts). */
export const testRegisterScript = path.join(distDir, 'testing-register.js');

/** Entry script of the webhook delivery thread. */
export const deliveryWorkerScript = path.join(distDir, 'delivery-worker.js');

/** The `spout` command's script: bin/spout.js beside dist/ (a checkout or an npm install), else the built CLI itself. */
export const cliScript = [path.join(distDir, '..', 'bin', 'spout.js'), path.join(distDir, 'cli.js')].find((f) => fs.existsSync(f)) ?? path.join(distDir, 'cli.js');

/** Folder of the built renderer (index.html and its assets). */
export const rendererDir = path.join(distDir, 'renderer');

/**
 * The components that ship with Spout (the bundled part of the local registry): `resources/components`
 * beside dist/ in a checkout, or in the desktop package's resources folder.
 */
export const bundledRegistryDir = ((): string => {
  const packaged = (process as { resourcesPath?: string }).resourcesPath;
  const candidates = [path.join(distDir, '..', 'resources', 'components'), ...(packaged ? [path.join(packaged, 'resources', 'components')] : [])];
  return candidates.find((dir) => fs.existsSync(dir)) ?? (candidates[0] as string);
})();
