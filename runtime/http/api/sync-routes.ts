import { Router } from 'express';
import { z } from 'zod';
import type { SyncJobView } from '../../contract/sync-api';
import { newId } from '../../lib/ids';
import { ApiClient } from '../../remote/api-client';
import { readProfiles, removeProfile, writeProfile } from '../../remote/profiles';
import { LinkFile, linkChangeSchema } from '../../sync/links';
import { checkPipedream } from '../../sync/pipedream-side';
import { checkRemoteUrl, remoteFromProfile, remoteViews } from '../../sync/remotes';
import { applySync, planSync, type RemoteSpec, remoteClient, type SyncContext, syncStatus } from '../../sync/sync-session';
import { HttpError, notFound } from '../edge/error-statuses';
import type { ApiContext } from './api-context';
import { booleanParam, parseParams } from './params';

const profileName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'must be 1-64 letters, digits, ".", "_" or "-"');

export const remoteSchema = z.object({
  name: profileName,
  kind: z.enum(['spout', 'pipedream']).default('spout'),
  api_url: z.string().max(2000).optional(),
  api_key: z.string().trim().min(1, 'give the API key').max(1000),
  org_id: z
    .string()
    .regex(/^o_[A-Za-z0-9]+$/, 'must be a Pipedream workspace id (o_…)')
    .optional(),
  /** Check the key against the remote before saving (default true). */
  verify: booleanParam.default(true),
});

export const planSchema = z.object({
  remote: profileName,
  direction: z.enum(['push', 'pull']).default('push'),
  with_secrets: booleanParam.default(false),
  with_data: booleanParam.default(false),
  force: booleanParam.default(false),
});

export const applySchema = planSchema.extend({
  /** The plan the user saw: refused if what would be done has changed since. */
  plan_id: z.string().min(1).max(100).optional(),
  /** Deletions listed in the plan may be made. */
  confirm_deletions: booleanParam.default(false),
});

export const linksQuery = z.object({ remote: z.string().min(1).max(500) });
export const statusQuery = z.object({ remote: profileName, with_data: booleanParam.default(false) });

/**
 * Why a new remote profile was refused, at the field to fix: a key the remote refused is the API
 * key's problem (said once, with where to check it), anything else the address's.
 */
function verifyFailure(url: string, err: Error & { status?: number }): HttpError {
  if (err.status === 401 || err.status === 403) {
    return new HttpError(400, `${url} refused the API key`, [{ path: 'api_key', message: `${url} refused the API key: check it (the remote's Settings show its last four characters)` }]);
  }
  return new HttpError(400, `${url}: ${err.message}`, [{ path: 'api_url', message: err.message }]);
}

/** Keeps the latest apply jobs, for the UI to follow. */
const MAX_JOBS = 20;

/** Checks a remote's key: a Spout's list call, Pipedream's `users/me`. Resolves what to tell the user. */
async function testRemote(remote: RemoteSpec): Promise<string> {
  const client = remoteClient(remote);
  if (remote.kind === 'pipedream') return `signed in to Pipedream as ${await checkPipedream(client, remote.orgId)}`;
  await client.get('/v1/users/me/sources', { limit: 1 });
  return `${remote.url} accepted the key`;
}

/** Remote instances (the `spout login` profiles), sync plans and applies, and the links sync keeps. */
export function syncRoutes(ctx: ApiContext): Router {
  const router = Router();
  let linkFile: LinkFile | null = null;
  const links = () => (linkFile ??= new LinkFile(ctx.settings().data_dir));
  const jobs = new Map<string, SyncJobView>();
  const context = (name: string): SyncContext => {
    let remote: RemoteSpec;
    try {
      remote = remoteFromProfile(name);
    } catch (err) {
      throw new HttpError(Object.hasOwn(readProfiles(), name) ? 400 : 404, (err as Error).message);
    }
    const local = new ApiClient({ url: ctx.settings().url, apiKey: ctx.auth.apiKey, origin: 'this service', keyOrigin: 'this service' }, 'sync');
    return { local, remote, links: links() };
  };
  /** Failures of the remote (unreachable, refused key) are the request's problem, not the service's: 502. */
  const remoteFailure = (err: unknown): never => {
    if (err instanceof HttpError) throw err;
    throw new HttpError(502, (err as Error).message);
  };

  router.get('/remotes', (_req, res) => {
    res.json({ data: remoteViews() });
  });

  router.post('/remotes', async (req, res) => {
    const input = parseParams(req, remoteSchema);
    let url: string;
    try {
      url = checkRemoteUrl(input.api_url || (input.kind === 'pipedream' ? 'https://api.pipedream.com' : ''));
    } catch (err) {
      throw new HttpError(400, input.api_url ? `api_url: ${(err as Error).message}` : 'give api_url, the address of the Spout instance');
    }
    const remote: RemoteSpec = { name: input.name, kind: input.kind, url, apiKey: input.api_key, orgId: input.org_id ?? null };
    // A key the remote refuses (or an address that does not answer) is bad input to this call.
    if (input.verify) await testRemote(remote).catch((err: Error & { status?: number }) => Promise.reject(verifyFailure(url, err)));
    writeProfile(input.name, { kind: input.kind, api_url: url, api_key: input.api_key, ...(input.org_id ? { org_id: input.org_id } : {}) });
    res.json({ data: remoteViews().find((r) => r.name === input.name) });
  });

  router.delete('/remotes/:name', (req, res) => {
    if (!removeProfile(req.params.name)) throw notFound('remote profile', req.params.name);
    res.status(204).end();
  });

  router.post('/remotes/:name/test', async (req, res) => {
    const { remote } = context(req.params.name);
    try {
      res.json({ data: { ok: true, detail: await testRemote(remote) } });
    } catch (err) {
      res.json({ data: { ok: false, detail: (err as Error).message } });
    }
  });

  router.post('/sync/plan', async (req, res) => {
    const input = parseParams(req, planSchema);
    const planned = await planSync(context(input.remote), input.direction, { with_secrets: input.with_secrets, with_data: input.with_data }, input.force).catch(remoteFailure);
    res.json({ data: planned.plan });
  });

  router.post('/sync/apply', (req, res) => {
    const input = parseParams(req, applySchema);
    const sync = context(input.remote);
    const job: SyncJobView = { id: newId('sync'), status: 'running', events: [], total: 0, result: null, error: null, started_at: Math.floor(Date.now() / 1000) };
    jobs.set(job.id, job);
    for (const id of [...jobs.keys()].slice(0, Math.max(0, jobs.size - MAX_JOBS))) jobs.delete(id);
    void applySync(sync, input.direction, { with_secrets: input.with_secrets, with_data: input.with_data }, input.force, {
      confirmDeletions: input.confirm_deletions,
      planId: input.plan_id,
      onEvent: (event) => {
        job.total = event.total;
        const i = job.events.findIndex((e) => e.index === event.index);
        if (i === -1) job.events.push(event);
        else job.events[i] = event;
      },
    }).then(
      (result) => {
        job.result = result;
        job.status = result.ok ? 'done' : result.refused ? 'refused' : 'failed';
      },
      (err: Error) => {
        job.status = 'failed';
        job.error = err.message;
      },
    );
    res.status(202).json({ data: job });
  });

  router.get('/sync/jobs/:id', (req, res) => {
    const job = jobs.get(req.params.id);
    if (!job) throw notFound('sync job', req.params.id);
    res.json({ data: job });
  });

  router.get('/sync/status', async (req, res) => {
    const input = parseParams(req, statusQuery);
    res.json({ data: await syncStatus(context(input.remote), { with_secrets: false, with_data: input.with_data }).catch(remoteFailure) });
  });

  router.get('/sync/links', async (req, res) => {
    res.json({ data: await links().read(parseParams(req, linksQuery).remote) });
  });

  router.post('/sync/links', async (req, res) => {
    await links().save(parseParams(req, linkChangeSchema));
    res.status(204).end();
  });

  return router;
}
