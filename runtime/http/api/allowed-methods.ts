// Which methods the /v1 routes answer at a path, so a known path called with another method is
// a 405 with `Allow` (RFC 9110), not a 404. Read from express's route table (the same table
// express itself reads to answer OPTIONS), walking mounted routers.

interface Layer {
  match: (path: string) => { path: string } | false;
  route?: { methods: Record<string, boolean> };
  handle?: { stack?: unknown };
}

function isLayer(value: unknown): value is Layer {
  return typeof value === 'object' && value !== null && typeof (value as { match?: unknown }).match === 'function';
}

/** The methods (upper case; HEAD with GET) that some route of `router` answers at `path`; empty if none. */
export function allowedMethods(router: { stack?: unknown }, path: string): string[] {
  const found = new Set<string>();
  const walk = (stack: unknown, at: string) => {
    if (!Array.isArray(stack)) return;
    for (const layer of stack) {
      if (!isLayer(layer)) continue;
      const match = layer.match(at);
      if (!match) continue;
      if (layer.route) {
        for (const [method, on] of Object.entries(layer.route.methods)) if (on && method !== '_all') found.add(method.toUpperCase());
      } else if (layer.handle && Array.isArray(layer.handle.stack)) {
        walk(layer.handle.stack, at.slice(match.path.length) || '/');
      }
    }
  };
  walk(router.stack, path);
  if (found.has('GET')) found.add('HEAD');
  return [...found].sort();
}
