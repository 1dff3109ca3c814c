import { Router } from 'express';
import { z } from 'zod';
import type { Cassette } from '../../contract/network-api';
import type { ApiContext } from './api-context';
import { DEFAULT_MATCHING } from '../../store/cassette-store';
import { notFound } from '../edge/error-statuses';

/** A body as a cassette holds it; hand-written entries may give just the text. */
const body = {
  body: z.string().default(''),
  body_encoding: z.enum(['utf8', 'base64']).default('utf8'),
  body_size: z.number().int().nonnegative().optional(),
  body_truncated: z.boolean().default(false),
};

/** Fills in a body's size when a hand-written entry leaves it out. */
const sized = <T extends { body: string; body_encoding: 'utf8' | 'base64'; body_size?: number }>(b: T) => ({ ...b, body_size: b.body_size ?? Buffer.byteLength(b.body, b.body_encoding) });

const headers = z.record(z.string(), z.string()).default({});

/** The cassette a PUT takes: a recorded file as is, or entries written by hand (status, headers, body). */
export const cassetteSchema = z.object({
  version: z.literal(1).default(1),
  matching: z
    .object({
      ignore_query: z.array(z.string()).default(DEFAULT_MATCHING.ignore_query),
      body: z.boolean().default(DEFAULT_MATCHING.body),
      order: z.enum(['sequence', 'content']).default(DEFAULT_MATCHING.order),
    })
    .default({ ...DEFAULT_MATCHING }),
  entries: z
    .array(
      z.object({
        request: z.object({ method: z.string().regex(/^[A-Za-z]+$/, 'must be an HTTP method such as GET'), url: z.url({ protocol: /^https?$/, error: 'must be an absolute URL (http or https): components make HTTP calls only' }), headers, ...body }).transform(sized),
        response: z.object({ status: z.number().int().min(100).max(599), headers, ...body }).transform(sized),
        recorded_at: z.number().nullable().default(null),
      }),
    )
    .default([]),
});

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
      await ctx.network.cassettes.put(id, cassette);
      ctx.network.reset(id);
      res.json({ data: cassette });
    });
  }
  return router;
}
