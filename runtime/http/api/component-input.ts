import { z } from 'zod';

/** Module text as sent in `component_code`. */
export const componentCode = z.string().min(1, 'must not be empty').max(5 * 1024 * 1024, 'is over 5 MB');

/** Optional file name: picks the loader (.ts for TypeScript) and names the file in stack traces. */
export const componentFilename = z
  .string()
  .regex(/^[\w.-]+\.(mjs|cjs|js|ts|mts|cts)$/, 'must be a file name ending in .mjs, .js, .cjs or .ts')
  .optional();

/** A URL of raw module text, fetched by the service (`component_url`). */
export const componentUrl = z.string().min(1, 'must not be empty').max(4096);
