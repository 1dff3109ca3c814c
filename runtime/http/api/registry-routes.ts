import { Router } from 'express';
import { z } from 'zod';
import type { RegistryComponent } from '../../components/registry';
import { pageParams, paginate } from '../../lib/pagination';
import type { ComponentRecord } from '../../store/metadata';
import { HttpError } from '../edge/error-statuses';
import type { ApiContext } from './api-context';
import { parseParams } from './params';

/** How long a list or search waits for the index before answering with what is indexed. */
const LIST_WAIT_MS = 5000;

export const listSchema = pageParams.extend({
  type: z.enum(['source', 'action']).optional(),
  app: z.string().min(1).optional(),
});

export const searchSchema = z.object({
  q: z.string().optional(),
  query: z.string().optional(),
  type: z.enum(['source', 'action']).optional(),
  app: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/**
 * The saved component for a registry key: the registry's current file, saved (once per version)
 * so that it can be deployed and configured like any saved component. Undefined when the key is
 * not in the registry.
 */
export async function registryComponent(ctx: ApiContext, key: string): Promise<ComponentRecord | undefined> {
  const entry = await ctx.registry.get(key);
  if (!entry) return undefined;
  const files = { files: entry.files, entry_file: entry.entry_file };
  return ctx.library.findByHash(entry.code_hash, files) ?? (await ctx.library.save(entry.code, entry.filename, ctx.describeSandbox, { origin: 'registry', files }));
}

/** 404 for a key the registry does not have, saying why when a file that names it failed to load. */
export function registryNotFound(ctx: ApiContext, key: string): HttpError {
  const problem = ctx.registry.problemFor(key);
  if (problem) {
    const why = problem.errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ');
    return new HttpError(404, `registry component ${key} could not be loaded from ${problem.folder}/${problem.path}: ${why}`, problem.errors);
  }
  return new HttpError(404, `component ${key} was not found in the registry or among saved components; GET /v1/components/registry lists the registry`);
}

/** True when a registry component is of the type and app asked for (either may be left out). */
const matches = (c: RegistryComponent, q: { type?: string; app?: string }) => (!q.type || c.type === q.type) && (!q.app || c.app === q.app);

/** The registry's components matching words, of a type and app, best first (the index waited for a while). */
export async function searchRegistry(ctx: ApiContext, text: string, q: { type?: string; app?: string; limit: number }): Promise<RegistryComponent[]> {
  await ctx.registry.refresh(LIST_WAIT_MS);
  return ctx.registry
    .search(text)
    .filter((c) => matches(c, q))
    .slice(0, q.limit);
}

/** The local registry: bundled components and the folders given with `--registry`, by key. */
export function registryRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.get('/components/registry', async (req, res) => {
    const q = parseParams(req, listSchema);
    const { pending } = await ctx.registry.refresh(LIST_WAIT_MS);
    const items = ctx.registry
      .list()
      .filter((c) => matches(c, q))
      .map((c) => ({ id: c.key, c }));
    res.json({
      ...paginate(items, q, (i) => i.c),
      folders: ctx.registry.folders(),
      errors: ctx.registry.problems(),
      // Files not described yet (a large folder on first use): asked again, the list grows.
      pending,
    });
  });

  router.get('/components/search', async (req, res) => {
    const q = parseParams(req, searchSchema);
    const found = await searchRegistry(ctx, q.q ?? q.query ?? '', q);
    res.json({
      sources: found.filter((c) => c.type === 'source').map((c) => c.key),
      actions: found.filter((c) => c.type === 'action').map((c) => c.key),
      data: found,
    });
  });

  router.get('/components/registry/:key', async (req, res) => {
    const entry = await ctx.registry.get(req.params.key);
    if (!entry) throw registryNotFound(ctx, req.params.key);
    res.json({ data: entry });
  });

  return router;
}
