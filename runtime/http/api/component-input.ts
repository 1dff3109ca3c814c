import { z } from 'zod';
import { fetchComponentCode, FetchCodeError, type FetchedCode } from '../../components/fetch-code';
import { HttpError } from '../edge/error-statuses';

/** Module text as sent in `component_code`. */
export const componentCode = z.string().min(1, 'must not be empty').max(5 * 1024 * 1024, 'is over 5 MB');

/** Optional file name: picks the loader (.ts for TypeScript) and names the file in stack traces. */
export const componentFilename = z
  .string()
  .regex(/^[\w.-]+\.(mjs|cjs|js|ts|mts|cts)$/, 'must be a file name ending in .mjs, .js, .cjs or .ts')
  .optional();

/** A URL of raw module text, fetched by the service (`component_url`). */
export const componentUrl = z.string().min(1, 'must not be empty').max(4096);

/** Fetches `component_url`; a failure is a 400 naming the URL. */
export async function fetchComponentUrl(url: string): Promise<FetchedCode> {
  try {
    return await fetchComponentCode(url);
  } catch (err) {
    if (err instanceof FetchCodeError) throw new HttpError(400, err.message);
    throw err;
  }
}
