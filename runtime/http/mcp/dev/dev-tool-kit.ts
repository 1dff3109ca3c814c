// What every dev tool is made of: a name, words for the agent, a zod input schema (checked on every
// call; its JSON Schema is what tools/list shows), annotations that say whether it only reads or
// destroys, and the function that answers.
import type { CallToolResult, Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ComponentError } from '../../../lib/error-kinds';
import type { ApiContext } from '../../api/api-context';
import { HttpError } from '../../edge/error-statuses';
import { FileRefused, type RootGuard } from './dev-roots';

/** What a dev tool reaches: the service's parts, the session's folders, and the files it deployed sources from. */
export interface DevSession {
  ctx: ApiContext;
  roots: RootGuard;
  /** Source id → the file it was deployed or updated from, to name in errors' locations. */
  files: Map<string, string>;
}

/** One tool of the dev toolset. */
export interface DevTool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: S;
  annotations: ToolAnnotations;
  run: (args: z.infer<S>, session: DevSession) => Promise<CallToolResult>;
}

/** A tool, typed by its input schema. */
export function devTool<S extends z.ZodObject>(tool: DevTool<S>): DevTool {
  return tool as unknown as DevTool;
}

/** How tools/list shows a dev tool: its input as JSON Schema (draft 2020-12, without `$schema`). */
export function listedTool(tool: DevTool): Tool {
  const { $schema: _, ...schema } = z.toJSONSchema(tool.input, { io: 'input' }) as Record<string, unknown>;
  return { name: tool.name, title: tool.title, description: tool.description, inputSchema: schema as Tool['inputSchema'], annotations: { title: tool.title, ...tool.annotations } };
}

/** A result that says what went wrong and how to go on. */
export function refusal(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/** The words of an error the service answers a user with (a component's problems one per line). */
function wordsOf(err: unknown): string | null {
  if (err instanceof ComponentError) {
    const problems = err.problems.map((p) => `- ${p.path ? `${p.path}: ` : ''}${p.message}`);
    // A single problem is usually the message itself: said once.
    return problems.some((line) => line.includes(err.message)) ? problems.join('\n') : [err.message, ...problems].join('\n');
  }
  if (err instanceof HttpError || err instanceof FileRefused) return err.message;
  return null;
}

/** Runs a tool call: arguments checked by its schema, errors a user would see as `isError` results. */
export async function callTool(tool: DevTool, args: Record<string, unknown>, session: DevSession): Promise<CallToolResult> {
  const input = tool.input.safeParse(args);
  if (!input.success) return refusal(`${tool.name}: ${input.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ')}`);
  try {
    return await tool.run(input.data, session);
  } catch (err) {
    const words = wordsOf(err);
    if (words === null) throw err;
    return refusal(words);
  }
}
