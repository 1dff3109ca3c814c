import { z } from 'zod';
import { isFileSetPath, MAX_COMPONENT_FILES } from '../../components/file-set';

/** Module text as sent in `component_code`. */
export const componentCode = z
  .string()
  .min(1, 'must not be empty')
  .max(5 * 1024 * 1024, 'is over 5 MB');

/** Optional file name: picks the loader (.ts for TypeScript) and names the file in stack traces. */
export const componentFilename = z
  .string()
  .regex(/^[\w.-]+\.(mjs|cjs|js|ts|mts|cts)$/, 'must be a file name ending in .mjs, .js, .cjs or .ts')
  .optional();

/** A URL of raw module text, fetched by the service (`component_url`). */
export const componentUrl = z.string().min(1, 'must not be empty').max(4096);

/** Original files sent to be bundled (`PUT /v1/sources/{id}` `files`): safe relative paths, bounded in number and size. */
export const componentFiles = z
  .array(
    z.object({
      path: z.string().refine(isFileSetPath, 'must be a relative path inside the component, such as "app/sources/x/x.mjs" (no leading /, no . or .. parts)'),
      code: z.string().max(5 * 1024 * 1024, 'is over 5 MB'),
    }),
  )
  .min(1, 'give at least the component file')
  .max(MAX_COMPONENT_FILES, `are more than ${MAX_COMPONENT_FILES}`);

/** Which of `files` is the component's own. */
export const entryFile = z.string().refine(isFileSetPath, 'must be the path of one of files');
