// The example app's server (docs/connect.md): it serves the page, and creates Connect tokens for
// its signed-in user with @pipedream/sdk. Pointed at Spout by the environment alone:
//
//   eval "$(spout connect credentials --env)"   # or set the PIPEDREAM_* variables it prints
//   node docs/examples/connect/server.mjs
//
// PIPEDREAM_BASE_URL, PIPEDREAM_PROJECT_ID, PIPEDREAM_CLIENT_ID, PIPEDREAM_CLIENT_SECRET and
// PIPEDREAM_PROJECT_ENVIRONMENT are read by the SDK itself; PORT (default 3000) and COMPONENT
// (default ledgerly-record-entry) by this file.
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PipedreamClient } from "@pipedream/sdk";
import { build } from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));
const pd = new PipedreamClient();
const baseUrl = process.env.PIPEDREAM_BASE_URL ?? "https://api.pipedream.com";
const component = process.env.COMPONENT ?? "ledgerly-record-entry";

const bundled = await build({
  entryPoints: [path.join(here, "page.jsx")],
  bundle: true,
  write: false,
  format: "esm",
  platform: "browser",
  jsx: "automatic",
  define: { "process.env.NODE_ENV": '"production"' },
  logLevel: "silent",
});
const script = bundled.outputFiles[0].text;
const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

let origin = "";
const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", origin);
  try {
    if (url.pathname === "/app.js") {
      res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    } else if (url.pathname === "/token") {
      // A real app takes the user from its own session, never from the request.
      const token = await pd.tokens.create({ externalUserId: url.searchParams.get("user") ?? "example-user", allowedOrigins: [origin] });
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ token: token.token, expires_at: token.expiresAt.toISOString(), connect_link_url: token.connectLinkUrl }));
    } else if (url.pathname === "/") {
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Example app</title></head><body><div id="root" data-base-url="${escapeHtml(baseUrl)}" data-component="${escapeHtml(component)}"></div><script type="module" src="/app.js"></script></body></html>`);
    } else if (url.pathname === "/favicon.ico") {
      res.writeHead(204).end();
    } else {
      res.writeHead(404).end();
    }
  } catch (err) {
    res.writeHead(500, { "content-type": "text/plain" }).end(String(err?.message ?? err));
  }
});
server.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => {
  origin = `http://127.0.0.1:${server.address().port}`;
  console.log(`Example app on ${origin}/?user=example-user`);
});
