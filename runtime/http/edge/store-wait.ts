// After a start, sources' events, runs and logs open on first use (the rest in the background):
// a request that reads them waits for them here, before any route sees it, and is never refused
// for it. A request about one source waits for that source's stores only; one that reads no store
// waits for nothing, so the service answers at once, whatever is stored.

/** What the wait needs of the sources. */
export interface StoreOpenings {
  /** The source behind a /v1/sources/{id} path (an id or a name slug). */
  sourceId(idOrSlug: string): string | undefined;
  /** The source behind an HTTP endpoint id (undefined: a workflow's, or none). */
  endpointSourceId(endpointId: string): string | undefined;
  /** Resolves once a source's stores are open (opening them now). */
  ready(sourceId: string): Promise<void>;
  /** Resolves once every store is open. */
  allReady(): Promise<void>;
}

/** /v1 paths that read no source's events, runs or logs: answered without waiting. */
const STORELESS = [/^\/v1\/(users\/me\/)?(sources|components|workflows|webhooks|subscriptions|accounts|data_stores)$/, /^\/v1\/components\/(?!.*\/invocations$)/, /^\/v1\/(accounts|data_stores|settings|openapi\.json|ui)(\/|$)/];

/** What a request must wait for before it is served: null for nothing. */
export function storeWait(url: string, stores: StoreOpenings): Promise<void> | null {
  const path = url.split('?', 1)[0] as string;
  const endpoint = /^\/e\/([^/]+)/.exec(path);
  if (endpoint) {
    const sourceId = stores.endpointSourceId(decoded(endpoint[1] as string));
    return sourceId ? stores.ready(sourceId) : null;
  }
  const source = /^\/(?:v1\/sources|sse\/dc)\/([^/]+)/.exec(path);
  if (source) {
    const sourceId = stores.sourceId(decoded(source[1] as string));
    // An unknown source is answered 404 by its route.
    return sourceId ? stores.ready(sourceId) : null;
  }
  if (!/^\/(v1|sse|mcp)(\/|$)/.test(path)) return null; // the UI's files, sign-in pages
  return STORELESS.some((re) => re.test(path)) ? null : stores.allReady();
}

/** A path segment decoded; a malformed one as it is (its route answers it). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
