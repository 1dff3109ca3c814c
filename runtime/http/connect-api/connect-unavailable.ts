// Connect endpoints that have no meaning offline answer 501 naming the endpoint and why (never a
// 404: the SDK call is right, Spout does not do it). docs/connect.md lists them.
import { Router } from 'express';
import { HttpError } from '../edge/error-statuses';

/** Each endpoint (Express path after `/v1/connect[/{project}]`), the SDK methods behind it, and why it is Pipedream-only. */
const UNAVAILABLE: Array<{ methods: Array<'get' | 'post' | 'put' | 'patch' | 'delete'>; path: string; sdk: string; why: string }> = [
  { methods: ['get', 'post'], path: '/app_overrides', sdk: 'appOverrides.list/create', why: "app overrides change how Pipedream's hosted Connect flow presents an app; Spout has no hosted flow (its Connect Link page takes the account's fields)" },
  { methods: ['get', 'put', 'delete'], path: '/app_overrides/:id', sdk: 'appOverrides.retrieve/update/delete', why: "app overrides change how Pipedream's hosted Connect flow presents an app; Spout has no hosted flow" },
  { methods: ['get', 'post'], path: '/oauth_apps', sdk: 'oauthApps.list/create', why: 'OAuth apps are the OAuth clients Pipedream signs users in with; offline there is no OAuth provider to sign in to (connect an account with its token instead)' },
  { methods: ['get', 'put', 'delete'], path: '/oauth_apps/:id', sdk: 'oauthApps.retrieve/update/delete', why: 'OAuth apps are the OAuth clients Pipedream signs users in with; offline there is no OAuth provider' },
  { methods: ['get'], path: '/file_stash/download', sdk: 'fileStash.downloadFile', why: "the file stash is Pipedream's hosted file storage for action runs; Spout's actions write to their own folders (dir props)" },
  { methods: ['post'], path: '/projects/:project_id/logo', sdk: 'projects.updateLogo', why: "a project logo is shown on Pipedream's hosted Connect pages; Spout's Connect Link page shows none" },
  { methods: ['get'], path: '/usage', sdk: 'usage.list', why: 'usage is what Pipedream bills for; nothing is billed offline' },
];

/** 501 answers for Connect endpoints Spout does not offer by design. */
export function connectUnavailableRoutes(): Router {
  const router = Router();
  for (const e of UNAVAILABLE) {
    for (const method of e.methods) {
      router[method](e.path, (req) => {
        throw new HttpError(501, `${req.method} /v1/connect/…${req.path} (${e.sdk}) is not available offline: ${e.why}. See docs/connect.md for what Spout's Connect API offers`);
      });
    }
  }
  return router;
}
