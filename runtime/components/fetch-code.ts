import path from 'node:path';
import { FetchCodeError } from '../lib/error-kinds';

/** Largest module text fetched from a `component_url`. */
export const MAX_COMPONENT_BYTES = 5 * 1024 * 1024;

/** How long fetching a `component_url` may take. */
export const FETCH_TIMEOUT_MS = 15_000;

/** Module text fetched from a URL, with the file name it is known by. */
export interface FetchedCode {
  code: string;
  /** The URL's base name when it is a module file name (it picks the loader), else `component.mjs`. */
  filename: string;
  /** The URL actually fetched (a GitHub page URL is turned into its raw one). */
  url: string;
}

/** A `github.com/<owner>/<repo>/blob/<ref>/<path>` page URL becomes the raw file's URL; others are kept. */
export function rawCodeUrl(url: URL): URL {
  const m = url.hostname === 'github.com' ? /^\/([^/]+)\/([^/]+)\/blob\/(.+)$/.exec(url.pathname) : null;
  return m ? new URL(`https://raw.githubusercontent.com/${m[1]}/${m[2]}/${m[3]}`) : url;
}

/** Fetches raw component code (http/https, at most 5 MB, 15 s); failures are FetchCodeErrors naming the URL. */
export async function fetchComponentCode(text: string, options: { timeoutMs?: number; maxBytes?: number } = {}): Promise<FetchedCode> {
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? MAX_COMPONENT_BYTES;
  let given: URL;
  try {
    given = new URL(text);
  } catch {
    throw new FetchCodeError(`component_url "${text}" is not a URL; give the http(s) address of the raw module text`);
  }
  if (given.protocol !== 'http:' && given.protocol !== 'https:') throw new FetchCodeError(`component_url ${text}: only http and https URLs can be fetched`);
  const url = rawCodeUrl(given);
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow', headers: { accept: 'text/plain, application/javascript, */*' } });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError') throw new FetchCodeError(`component_url ${url.href}: no answer within ${timeoutMs / 1000} s`);
    throw new FetchCodeError(`component_url ${url.href} could not be fetched: ${e.cause?.code ?? e.cause?.message ?? e.message}`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new FetchCodeError(`component_url ${url.href} answered ${res.status} ${res.statusText}; give the URL of the raw module text`);
  }
  const declared = Number(res.headers.get('content-length'));
  const tooLarge = () => new FetchCodeError(`component_url ${url.href}: the module is over ${maxBytes / 1024 / 1024} MB`);
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    const reader = res.body?.getReader();
    for (;;) {
      const next = reader ? await reader.read() : { done: true as const, value: undefined };
      if (next.done) break;
      size += next.value.byteLength;
      if (size > maxBytes) {
        await reader?.cancel();
        throw tooLarge();
      }
      chunks.push(next.value);
    }
  } catch (err) {
    if (err instanceof FetchCodeError) throw err;
    const e = err as Error;
    throw new FetchCodeError(`component_url ${url.href}: ${e.name === 'TimeoutError' ? `not fully received within ${timeoutMs / 1000} s` : `reading failed: ${e.message}`}`);
  }
  const code = Buffer.concat(chunks).toString('utf8');
  if (!code.trim()) throw new FetchCodeError(`component_url ${url.href} answered an empty body`);
  const base = path.posix.basename(url.pathname);
  const filename = /^[\w.-]+\.(mjs|cjs|js|ts|mts|cts)$/.test(base) ? base : 'component.mjs';
  return { code, filename, url: url.href };
}
