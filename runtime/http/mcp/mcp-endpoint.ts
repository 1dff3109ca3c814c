// The streamable-HTTP MCP endpoint, `/mcp` on the service's port (docs/mcp.md): the bearer key
// (never a UI session cookie), behind the app's Host and Origin checks; one SDK transport and
// server per session, which `initialize` starts and `DELETE /mcp` (or the service's stop) ends.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { Router } from 'express';
import { z } from 'zod';
import { McpTools } from '../../engine/tools/mcp-tools';
import type { ToolScope } from '../../engine/tools/tool-catalog';
import type { ApiContext } from '../api/api-context';
import { registryComponent } from '../api/registry-routes';
import { requireAuth } from '../edge/auth';
import { HttpError } from '../edge/error-statuses';
import { jsonBody } from '../edge/json-body';
import { DevToolset } from './dev/dev-toolset';
import { sessionServer } from './session-server';

/** Sessions kept at once; starting one more ends the one used longest ago. */
const MAX_SESSIONS = 100;

const list = z.union([z.string(), z.array(z.string())]).transform((v) => [v].flat());

/** A session's choices over the MCP settings, in the query string of its `initialize` (`spout mcp --app/--account/--network`). */
const scopeSchema = z.object({
  app: list.pipe(z.array(z.string().regex(/^[a-z0-9_-]+$/, 'must be an app name slug such as "http"'))).optional(),
  account: list.pipe(z.array(z.string().regex(/^(?:[a-z0-9_-]+=)?apn_[A-Za-z0-9_-]+$/, 'must be apn_… or APP=apn_…'))).optional(),
  network: z.enum(['live', 'record', 'replay', 'replay-or-live']).optional(),
  /** `dev`: the developer toolset instead of the actions (docs/mcp.md "Developing components"). */
  toolset: z.enum(['actions', 'dev']).optional(),
  /** The folders a dev session may read and write (absolute paths). */
  root: list.pipe(z.array(z.string().refine((p) => path.isAbsolute(p), 'must be an absolute folder path'))).optional(),
});

type Choices = z.infer<typeof scopeSchema>;

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  usedAt: number;
}

/** The `/mcp` endpoint and its sessions. */
export class McpEndpoint {
  private readonly sessions = new Map<string, Session>();
  private readonly tools: McpTools;

  constructor(private readonly ctx: ApiContext) {
    this.tools = new McpTools({
      catalog: ctx.mcp.catalog,
      sessions: ctx.sessions,
      stores: async () => (await ctx.dataStores.list()).map((s) => ({ id: s.id, name: s.name })),
      registryComponent: (key) => registryComponent(ctx, key),
    });
  }

  /** The routes under `/mcp`. */
  router(): Router {
    const router = Router();
    router.use(requireAuth(this.ctx.auth, { cookie: false }), jsonBody({ limit: '4mb' }));
    router.all('/', async (req, res) => {
      const id = req.headers['mcp-session-id'];
      if (typeof id === 'string') {
        const session = this.sessions.get(id);
        // 404 tells a client its session is gone (the service restarted): it starts a new one.
        if (!session) throw new HttpError(404, `MCP session ${id} is unknown or has ended; start a new one with initialize`);
        session.usedAt = Date.now();
        return session.transport.handleRequest(req, res, req.body);
      }
      if (req.method !== 'POST' || !isInitializeRequest(req.body)) {
        throw new HttpError(400, 'no MCP session: send initialize (POST /mcp without an mcp-session-id header) first, then the mcp-session-id it answers with on every request');
      }
      const choices = scopeSchema.parse(req.query);
      const session = await this.start(this.scopeOf(choices), this.devOf(choices));
      await session.transport.handleRequest(req, res, req.body);
      // An initialize the transport refused started no session: its server must not linger.
      if (!session.transport.sessionId) await session.server.close();
    });
    return router;
  }

  /** Ends every session (the service is stopping). */
  async close(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(sessions.map((s) => s.server.close().catch(() => undefined)));
  }

  private async start(scope: ToolScope, dev: DevToolset | undefined): Promise<Session> {
    if (this.sessions.size >= MAX_SESSIONS) {
      const [oldest] = [...this.sessions.entries()].sort((a, b) => a[1].usedAt - b[1].usedAt);
      if (oldest) {
        this.sessions.delete(oldest[0]);
        await oldest[1].server.close().catch(() => undefined);
      }
    }
    const server = sessionServer({ ctx: this.ctx, catalog: this.ctx.mcp.catalog, tools: this.tools, scope, dev });
    const session: Session = { server, usedAt: Date.now(), transport: undefined as unknown as StreamableHTTPServerTransport };
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.sessions.set(id, session),
    });
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      if (session.transport.sessionId && this.sessions.get(session.transport.sessionId) === session) this.sessions.delete(session.transport.sessionId);
    };
    await server.connect(session.transport);
    return session;
  }

  /** The developer toolset a session asked for (`toolset=dev`), with its `root` folders. */
  private devOf(input: Choices): DevToolset | undefined {
    if (input.toolset !== 'dev') {
      if (input.root) throw new HttpError(400, 'root: folders are for the developer toolset; add toolset=dev');
      return undefined;
    }
    return new DevToolset(this.ctx, input.root ?? []);
  }

  /** The session's choices, each account checked against the connected ones. */
  private scopeOf(input: Choices): ToolScope {
    const scope: ToolScope = {};
    if (input.app) scope.apps = input.app;
    if (input.network) scope.network = input.network;
    for (const given of input.account ?? []) {
      const [app, id] = given.includes('=') ? (given.split('=') as [string, string]) : [null, given];
      const account = this.ctx.metadata.data.accounts.find((a) => a.id === id);
      if (!account) throw new HttpError(400, `account: no connected account ${id}; GET /v1/accounts lists them`);
      if (app !== null && account.app !== app) throw new HttpError(400, `account: ${id} is an account of app "${account.app}", not "${app}"`);
      (scope.accounts ??= {})[account.app] = account.id;
    }
    return scope;
  }
}
