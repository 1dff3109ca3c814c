// Tools that read: the guide, the registry, a component as an example, and lint.
import { z } from 'zod';
import { cutText } from '../../../lib/text-limits';
import { registryNotFound, searchRegistry } from '../../api/registry-routes';
import { boundedResult } from './dev-bounds';
import { componentInput, componentText, findingLocation } from './dev-component-text';
import { GUIDE_TOPICS } from './dev-guide';
import { type DevTool, devTool, refusal } from './dev-tool-kit';

/** Of an example's code, this many bytes. */
const CODE_LIMIT = 20_000;

const READS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const topics = GUIDE_TOPICS.map((t) => t.topic) as [string, ...string[]];

/** The knowledge tools: component_guide, search_registry, describe_component, lint_component. */
export const KNOWLEDGE_TOOLS: DevTool[] = [
  devTool({
    name: 'component_guide',
    title: 'Component guide',
    description: `How to write Spout (Pipedream-style) components: props and every prop type, interfaces, hooks, $emit and dedupe, this.db, app props and $auth, actions' $.export and $.send, tests with spout/testing, and common mistakes with the errors Spout gives. Without a topic: every topic. Topics: ${topics.join(', ')}.`,
    input: z.object({ topic: z.enum(topics).optional().describe('One topic; leave out for the whole guide') }),
    annotations: READS,
    run: async ({ topic }) => {
      const chosen = GUIDE_TOPICS.filter((t) => !topic || t.topic === topic);
      return { content: [{ type: 'text', text: chosen.map((t) => `# ${t.title}\n${t.text}`).join('\n\n') }] };
    },
  }),
  devTool({
    name: 'search_registry',
    title: 'Search the registry',
    description: "Finds apps, sources and actions in the local component registry by words (offline). Answers each match's key, name, type, app and description; describe_component shows one whole.",
    input: z.object({
      query: z.string().max(200).describe('Words to look for, e.g. "new order webhook"'),
      type: z.enum(['source', 'action']).optional(),
      app: z.string().min(1).max(100).optional().describe('Only this app, e.g. "github"'),
      limit: z.number().int().min(1).max(50).default(10),
    }),
    annotations: READS,
    run: async ({ query, type, app, limit }, { ctx }) => {
      const found = await searchRegistry(ctx, query, { type, app, limit });
      const matches = found.map((c) => ({ key: c.key, name: c.name, type: c.type, app: c.app, description: c.description }));
      return boundedResult({ matches, apps: [...new Set(found.map((c) => c.app))] }, `${matches.length} match${matches.length === 1 ? '' : 'es'} for "${query}"`);
    },
  }),
  devTool({
    name: 'describe_component',
    title: 'Describe a component',
    description: "A registry or saved component as an example to learn from: its props with their definitions (structured), and its own file's code (the last text block). Give a registry key (from search_registry), a saved key or a component id (sc_…).",
    input: z.object({ ref: z.string().min(1).max(200).describe('A registry key such as "http-new-requests", a saved key or an sc_… id') }),
    annotations: READS,
    run: async ({ ref }, { ctx }) => {
      const entry = await ctx.registry.get(ref);
      const saved = entry ? undefined : ctx.library.find(ref);
      const found = entry ?? saved;
      if (!found) return refusal(`${registryNotFound(ctx, ref).message.replace('GET /v1/components/registry lists the registry', 'search_registry finds registry keys')}`);
      const { key, name, version, type, description, configurable_props, code, filename, files, entry_file } = found;
      // The original file is the example: the bundled code inlines imports and ends in a source map.
      const own = files?.find((f) => f.path === entry_file)?.code ?? code;
      const result = boundedResult({ key, name, version, type, description, origin: entry ? 'registry' : 'saved', props: configurable_props, file: entry_file ?? filename, other_files: (files ?? []).map((f) => f.path).filter((p) => p !== entry_file) });
      result.content.push({ type: 'text', text: `// ${entry_file ?? filename}\n${cutText(own, CODE_LIMIT, 'component files shown')}` });
      return result;
    },
  }),
  devTool({
    name: 'lint_component',
    title: 'Lint a component',
    description: 'Checks a component file (or code) as Spout loads it, without saving or running it: errors (it cannot run) and warnings (rules Pipedream tolerates), each with its path and, when known, line and column.',
    input: z.object(componentInput),
    annotations: READS,
    run: async (input, session) => {
      const text = componentText(session, input, 'component.mjs');
      const result = await session.ctx.library.lint(text.code, text.filename, session.ctx.describeSandbox);
      const place = (p: { path: string; message: string }) => ({ ...p, ...findingLocation(p, text) });
      const errors = result.errors.map(place);
      const warnings = result.warnings.map(place);
      return boundedResult({ ok: errors.length === 0, errors, warnings, component: result.component && { key: result.component.key, name: result.component.name, type: result.component.type } }, `${errors.length} error(s), ${warnings.length} warning(s)`);
    },
  }),
];
