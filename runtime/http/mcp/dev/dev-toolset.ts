// The developer toolset (docs/mcp.md "Developing components"): off unless a session asks for it
// (`spout mcp --dev`, `/mcp?toolset=dev`). It replaces the action tools of a session with tools for
// the whole dev loop, and adds the component guide as resources.
import type { CallToolResult, Resource, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ApiContext } from '../../api/api-context';
import { GUIDE_TOPICS, guideTopic, guideUri } from './dev-guide';
import { KNOWLEDGE_TOOLS } from './dev-knowledge-tools';
import { RootGuard } from './dev-roots';
import { RUN_TOOLS } from './dev-run-tools';
import { SOURCE_TOOLS } from './dev-source-tools';
import { TEST_TOOLS } from './dev-test-tools';
import { callTool, type DevSession, listedTool } from './dev-tool-kit';

/** Every dev tool, in the order of the loop. */
export const DEV_TOOLS = [...KNOWLEDGE_TOOLS, ...SOURCE_TOOLS, ...RUN_TOOLS, ...TEST_TOOLS];

/** What a dev session tells an agent at `initialize`. */
export const DEV_INSTRUCTIONS = [
  'Spout develops Pipedream-style components offline on this machine.',
  'Read component_guide first; search_registry and describe_component show working examples.',
  'Write component files under the allowed folders only, then lint_component, deploy_source, send_http or fire_timer (or run_action), read the run (its error names the file and line), fix the file, update_source, and replay_run the request that failed; write a NAME.test.mjs beside the component (spout/testing) and run_tests to prove it.',
  'Everything deployed runs in the same sandbox as any source; delete_source when done.',
].join(' ');

/** One session's dev toolset, with its allowed folders. */
export class DevToolset {
  private readonly session: DevSession;

  constructor(ctx: ApiContext, roots: string[]) {
    this.session = { ctx, roots: new RootGuard(roots, ctx.settings().data_dir), files: new Map() };
  }

  /** The tools as `tools/list` answers them. */
  list(): Tool[] {
    return DEV_TOOLS.map(listedTool);
  }

  /** Runs a tool call; an unknown tool is null (the protocol's error). */
  async call(name: string, args: Record<string, unknown>): Promise<CallToolResult | null> {
    const tool = DEV_TOOLS.find((t) => t.name === name);
    return tool ? callTool(tool, args, this.session) : null;
  }

  /** The guide's topics as resources. */
  resources(): Resource[] {
    return GUIDE_TOPICS.map((t) => ({ uri: guideUri(t.topic), name: `guide-${t.topic}`, title: t.title, mimeType: 'text/markdown' }));
  }

  /** A guide resource's text, or undefined when the URI is not one. */
  read(uri: string): { contents: Array<{ uri: string; mimeType: string; text: string }> } | undefined {
    const topic = guideTopic(uri);
    return topic && { contents: [{ uri, mimeType: 'text/markdown', text: `# ${topic.title}\n${topic.text}` }] };
  }
}
