import fs from 'node:fs';
import path from 'node:path';
import { slugify } from '../../lib/slug';
import { parse } from '../support/args';
import { actionCassette, actionTest, sourceTest } from '../support/init-tests';
import { bold, displayPath, out, printJson } from '../support/output';
import { UsageError } from '../support/usage';

export const HELP = `Usage: spout init source|action|app NAME [--http] [--timer] [--db] [--dir DIR] [--force]

Writes a starter component in registry shape to DIR/<name>/<name>.mjs (an app: <name>.app.mjs),
ready for "spout dev" (a source) or "spout publish" (an action), and its first test beside it
(<name>.test.mjs, run with "spout test"; an action with --http also gets <name>.cassette.json).

Options:
  --http     a source: an HTTP endpoint ($.interface.http) that answers the caller;
             an action: an http_request prop the user configures
  --timer    a source: a timer ($.interface.timer, every 15 minutes)
  --db       a source: this.db ($.service.db) keeping state between runs;
             an action: a data_store prop
  --dir DIR  where to write (default: the current folder)
  --force    overwrite an existing file
A source without --http or --timer gets --http.
`;

const KINDS = ['source', 'action', 'app'] as const;
type Kind = (typeof KINDS)[number];

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { http: { type: 'boolean' }, timer: { type: 'boolean' }, db: { type: 'boolean' }, dir: { type: 'string' }, force: { type: 'boolean' } }, HELP);
  if (!args) return;
  const kind = args.required(0, 'what to create: source, action or app (spout init source NAME)') as Kind;
  if (!KINDS.includes(kind)) throw new UsageError(`cannot init "${kind}"; give source, action or app`);
  const rawName = args.atMost(2).required(1, `the ${kind}'s name (spout init ${kind} NAME)`);
  const slug = slugify(rawName);
  const name = /^[a-z0-9_-]+$/.test(rawName)
    ? rawName
        .split(/[-_]+/)
        .filter(Boolean)
        .map((w) => w[0]?.toUpperCase() + w.slice(1))
        .join(' ')
    : rawName;
  const opts = { http: args.flag('http'), timer: args.flag('timer'), db: args.flag('db') };
  if (kind === 'action' && opts.timer) throw new UsageError('--timer is for sources: actions run as workflow steps');
  if (kind === 'app' && (opts.http || opts.timer || opts.db)) throw new UsageError('--http, --timer and --db are for sources and actions');
  if (kind === 'source' && !opts.http && !opts.timer) opts.http = true;
  const dir = path.resolve(args.string('dir') ?? '.', slug);
  const file = path.join(dir, kind === 'app' ? `${slug}.app.mjs` : `${slug}.mjs`);
  if (fs.existsSync(file) && !args.flag('force')) throw new UsageError(`${displayPath(file)} exists; give --force to overwrite it, or another name`);
  const text = kind === 'source' ? sourceTemplate(slug, name, opts) : kind === 'action' ? actionTemplate(slug, name, opts) : appTemplate(slug, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, text);
  const tests = kind === 'app' ? [] : starterTests(dir, slug, kind, opts, args.flag('force') === true);
  const shown = displayPath(file);
  if (args.globals.json) return printJson({ file: path.resolve(file), kind, key: kind === 'app' ? null : slug, tests });
  out(`Wrote ${bold(shown)}`);
  for (const t of tests) out(`Wrote ${bold(displayPath(t))}`);
  if (tests.length > 0) out(`Test it with: spout test ${displayPath(dir)}`);
  if (kind === 'source') out(`Run it with: spout dev ${shown}`);
  if (kind === 'action') out(`Save it with: spout publish ${shown}`);
  if (kind === 'app') {
    const id = slug.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
    out(`Use it in a component: import ${id} from "…/${path.basename(file)}", then props: { ${id}, item: { propDefinition: [${id}, "itemId"] } }`);
  }
}

const q = (s: string) => JSON.stringify(s);

/** Writes the component's first test (and an action's cassette) beside it, keeping files that exist unless forced; returns what it wrote. */
function starterTests(dir: string, slug: string, kind: 'source' | 'action', o: { http: boolean; timer: boolean; db: boolean }, force: boolean): string[] {
  const files: Array<[string, string]> = [[`${slug}.test.mjs`, kind === 'source' ? sourceTest(`${slug}.mjs`, o) : actionTest(`${slug}.mjs`, o)]];
  if (kind === 'action' && o.http) files.push([`${slug}.cassette.json`, actionCassette()]);
  const written: string[] = [];
  for (const [name, content] of files) {
    const target = path.join(dir, name);
    if (fs.existsSync(target) && !force) continue;
    fs.writeFileSync(target, content);
    written.push(path.resolve(target));
  }
  return written;
}

function sourceTemplate(key: string, name: string, o: { http: boolean; timer: boolean; db: boolean }): string {
  const props = [
    o.http ? `    // An HTTP endpoint: every request to it runs the source (its URL is printed on deploy).\n    http: {\n      type: "$.interface.http",\n      customResponse: true,\n    },` : '',
    o.timer ? `    // Runs the source on a schedule; users may configure {"intervalSeconds": N} or {"cron": "…"}.\n    timer: {\n      type: "$.interface.timer",\n      default: {\n        intervalSeconds: 15 * 60,\n      },\n    },` : '',
    o.db ? `    // A key-value store of this source's own, kept across runs and redeploys.\n    db: "$.service.db",` : '',
    `    prefix: {\n      type: "string",\n      label: "Summary Prefix",\n      description: "Shown at the start of each event's summary.",\n      optional: true,\n      default: ${q(name)},\n    },`,
  ].filter(Boolean);
  const body: string[] = [];
  if (o.db) body.push(`    const count = (this.db.get("count") ?? 0) + 1;\n    this.db.set("count", count);`);
  const countPart = o.db ? ' #${count}' : '';
  if (o.http && o.timer) {
    body.push(
      `    if (event?.method) {\n      // An HTTP request: {method, path, query, headers, bodyRaw, body}.\n      this.$emit(event.body, {\n        summary: \`\${this.prefix}${countPart}: \${event.method} \${event.path}\`,\n      });\n      this.http.respond({\n        status: 200,\n        body: {\n          received: true,\n        },\n      });\n      return;\n    }\n    // A timer run: {timestamp, interval_seconds} (or {timestamp, cron}).\n    this.$emit(event, {\n      id: event.timestamp,\n      summary: \`\${this.prefix}${countPart}: timer\`,\n    });`,
    );
  } else if (o.http) {
    body.push(
      `    // event: {method, path, query, headers, bodyRaw, body}\n    this.$emit(event.body, {\n      summary: \`\${this.prefix}${countPart}: \${event.method} \${event.path}\`,\n    });\n    this.http.respond({\n      status: 200,\n      body: {\n        received: true,\n      },\n    });`,
    );
  } else {
    body.push(
      `    // event: {timestamp, interval_seconds} (or {timestamp, cron})\n    const timestamp = event?.timestamp ?? Math.floor(Date.now() / 1000);\n    this.$emit({\n      timestamp,\n    }, {\n      id: timestamp,\n      summary: \`\${this.prefix}${countPart} at \${new Date(timestamp * 1000).toISOString()}\`,\n    });`,
    );
  }
  return `// ${name}: an event source (Pipedream component API). Develop it with "spout dev".
export default {
  key: ${q(key)},
  name: ${q(name)},
  description: ${q(`Emit an event for each ${o.http ? 'request to its endpoint' : 'timer run'}.`)},
  version: "0.0.1",
  type: "source",
  props: {
${props.join('\n')}
  },
  async run(event) {
${body.join('\n')}
  },
};
`;
}

function actionTemplate(key: string, name: string, o: { http: boolean; db: boolean }): string {
  const props = [
    `    text: {\n      type: "string",\n      label: "Text",\n      description: "The input of this step.",\n    },`,
    o.http ? `    request: {\n      type: "http_request",\n      label: "Request",\n      description: "The HTTP request to send.",\n      default: {\n        method: "GET",\n        url: "https://example.com/",\n      },\n    },` : '',
    o.db ? `    dataStore: {\n      type: "data_store",\n      label: "Data Store",\n      description: "Where the last input is kept.",\n    },` : '',
  ].filter(Boolean);
  const body = [
    o.db ? `    const previous = await this.dataStore.get("last");\n    await this.dataStore.set("last", this.text);` : '',
    o.http ? `    const response = await this.request.execute();` : '',
    `    $.export("$summary", ${o.db ? '`Stored "${this.text}" (previously "${previous ?? ""}")`' : '`Handled "${this.text}"`'});`,
    `    return {\n      text: this.text,${o.db ? '\n      previous,' : ''}${o.http ? '\n      response: response.data,' : ''}\n    };`,
  ].filter(Boolean);
  return `// ${name}: an action (a workflow step, Pipedream component API). Save it with "spout publish".
export default {
  key: ${q(key)},
  name: ${q(name)},
  description: ${q(`${name}.`)},
  version: "0.0.1",
  type: "action",
  props: {
${props.join('\n')}
  },
  async run({ $ }) {
${body.join('\n')}
  },
};
`;
}

function appTemplate(slug: string, name: string): string {
  return `// ${name}: an app file. Components use it as a prop ({ type: "app", app: ${q(slug)} }) and spread
// its propDefinitions; a connected account's credentials are this.$auth.
export default {
  type: "app",
  app: ${q(slug)},
  propDefinitions: {
    itemId: {
      type: "string",
      label: "Item",
      description: "An item of the account.",
      async options({ page }) {
        const items = await this.listItems({
          page,
        });
        return items.map((item) => ({
          label: item.name,
          value: item.id,
        }));
      },
    },
  },
  methods: {
    _baseUrl() {
      return this.$auth.api_url ?? "https://api.example.com";
    },
    async _request(path, options = {}) {
      const response = await fetch(\`\${this._baseUrl()}\${path}\`, {
        ...options,
        headers: {
          "Authorization": \`Bearer \${this.$auth.api_key}\`,
          "Content-Type": "application/json",
          ...options.headers,
        },
      });
      if (!response.ok) throw new Error(\`\${path}: \${response.status} \${await response.text()}\`);
      return response.json();
    },
    async listItems({ page = 0 } = {}) {
      return this._request(\`/items?page=\${page + 1}\`);
    },
  },
};
`;
}
