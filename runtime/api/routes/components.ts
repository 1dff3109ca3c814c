import { Router } from 'express';
import { z } from 'zod';
import type { ComponentRecord } from '../../store/metadata';
import type { ApiContext } from '../context';
import { parseParams } from '../params';
import { notFound } from '../problem';
import type { ComponentView } from '../types';
import { componentCode, componentFilename } from './component-input';

const saveSchema = z.object({ component_code: componentCode, component_filename: componentFilename });

/** A saved component as the API shows it (no code, no bundle). */
export function componentView(c: ComponentRecord): ComponentView {
  return {
    id: c.id,
    key: c.key,
    name: c.name,
    version: c.version,
    type: c.type,
    description: c.description ?? null,
    code_hash: c.code_hash,
    configurable_props: c.configurable_props,
    created_at: c.created_at,
  };
}

/** Saved components: save module text (validated), read by id or key. */
export function componentRoutes(ctx: ApiContext): Router {
  const router = Router();

  router.post('/components', async (req, res) => {
    const input = parseParams(req, saveSchema);
    const component = await ctx.library.save(input.component_code, input.component_filename ?? 'component.mjs', ctx.describeSandbox);
    res.json({ data: componentView(component) });
  });

  router.get('/components/:id', (req, res) => {
    const component = ctx.library.find(req.params.id);
    if (!component) throw notFound('component', req.params.id);
    res.json({ data: componentView(component) });
  });

  return router;
}
