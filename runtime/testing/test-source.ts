import type { LoadedSource, LoadOptions } from './public-api';

/** Loads a source for a test. */
export async function loadTestSource(file: string, options: LoadOptions): Promise<LoadedSource> {
  throw new Error(`loadSource(${file}, ${Object.keys(options).join()}) is being written`);
}
