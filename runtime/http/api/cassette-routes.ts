import { Router } from 'express';
import type { Cassette } from '../../contract/network-api';
import { cassetteSchema } from '../../store/cassette-schema';
import { notFound } from '../edge/error-statuses';
import type { ApiContext } from './api-context';

/** A source's (or an action's) cassette: read it, replace it. */
export function cassetteRoutes(ctx: ApiContext): Router {
  const router = Router();
  const owner = (kind: 'sources' | 'components' | 'accounts', id: string): string => {
    // An account's cassette holds the Connect proxy's calls made with it (docs/connect.md).
    if (kind === 'accounts') {
      if (!ctx.metadata.data.accounts.some((a) => a.id === id)) throw notFound('account', id);
      return id;
    }
    if (kind === 'sources') {
      const source = ctx.sources.find(id);
      if (!source) throw notFound('source', id);
      return source.id;
    }
    const component = ctx.library.find(id);
    if (!component) throw notFound('component', id);
    return component.id;
  };
  for (const kind of ['sources', 'components', 'accounts'] as const) {
    router.get(`/${kind}/:id/cassette`, (req, res) => {
      res.json({ data: ctx.network.cassettes.get(owner(kind, req.params.id)) });
    });
    router.put(`/${kind}/:id/cassette`, async (req, res) => {
      const id = owner(kind, req.params.id);
      const cassette: Cassette = cassetteSchema.parse(req.body ?? {});
      const source = kind === 'sources' ? ctx.sources.find(id) : undefined;
      // A source's is masked before its one write: no version with a key in clear reaches the disk.
      if (source) {
        ctx.network.cassettes.hold(id, cassette);
        await ctx.sources.maskCassette(source);
      } else await ctx.network.cassettes.put(id, cassette);
      ctx.network.reset(id);
      res.json({ data: ctx.network.cassettes.get(id) });
    });
  }
  return router;
}
