// Connect's apps, read from the local registry tree: every app folder that has components is an
// app. Offline there is no app directory, so what an app's accounts hold is read from its code:
// the `$auth` fields its app file and components use.
import fs from 'node:fs';
import path from 'node:path';
import type { ComponentRegistry, RegistryComponent } from '../../components/registry';

/** An app as the registry tree shows it. */
export interface CatalogApp {
  slug: string;
  name: string;
  /** Fields an account of it holds (`this.$auth.<field>` in its code), sorted. */
  fields: string[];
  auth_type: 'keys' | 'oauth' | 'none';
  /** Built in (resources/components) or from a `--registry` folder. */
  category: CatalogCategory;
  actions: number;
  triggers: number;
}

export interface CatalogCategory {
  id: string;
  name: string;
  description: string;
}

/** Apps are sorted into where their components come from: Pipedream has categories, a local registry has folders. */
export const CATEGORIES: readonly CatalogCategory[] = [
  { id: 'appcat_bundled', name: 'Built in', description: 'Apps whose components ship with Spout' },
  { id: 'appcat_registry', name: 'Your registry', description: 'Apps of the folders given with --registry' },
];

/** `$auth.api_key`, `$auth["api_key"]`, `$auth?.api_key`. */
const AUTH_FIELD = /\$auth\??\.\s*([A-Za-z_$][\w$]*)|\$auth\??\.?\[\s*["'`]([^"'`]+)["'`]\s*\]/g;
const CODE_FILE = /\.(mjs|cjs|js|ts|mts|cts)$/;
/** An app folder is read again after this long. */
const FIELDS_TTL_MS = 2000;

/** `google_sheets` → `Google Sheets`. */
export function appName(slug: string): string {
  return slug
    .split(/[_-]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

/** The `$auth` fields used by the code files of one app folder. */
function fieldsOf(dir: string): string[] {
  const found = new Set<string>();
  const walk = (d: string, depth: number) => {
    if (depth > 6) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full, depth + 1);
      else if (CODE_FILE.test(e.name)) {
        const text = fs.readFileSync(full, 'utf8');
        for (const m of text.matchAll(AUTH_FIELD)) found.add((m[1] ?? m[2]) as string);
      }
    }
  };
  walk(dir, 0);
  return [...found].sort();
}

/** The registry's apps, with what their accounts hold. */
export class ConnectCatalog {
  private readonly fieldCache = new Map<string, { at: number; fields: string[] }>();

  constructor(private readonly registry: ComponentRegistry) {}

  /** Every app that has components, by slug. */
  async apps(): Promise<CatalogApp[]> {
    await this.registry.refresh(5000);
    const byApp = new Map<string, RegistryComponent[]>();
    for (const c of this.registry.list()) byApp.set(c.app, [...(byApp.get(c.app) ?? []), c]);
    return [...byApp.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([slug, components]) => this.app(slug, components));
  }

  /** One app, or undefined when no component of the registry belongs to it. */
  async find(slug: string): Promise<CatalogApp | undefined> {
    return (await this.apps()).find((a) => a.slug === slug);
  }

  private app(slug: string, components: RegistryComponent[]): CatalogApp {
    const last = components[components.length - 1] as RegistryComponent;
    const fields = [...new Set(components.flatMap((c) => this.fields(path.join(c.folder, slug))))].sort();
    return {
      slug,
      name: appName(slug),
      fields,
      auth_type: fields.length === 0 ? 'none' : fields.some((f) => f.startsWith('oauth_')) ? 'oauth' : 'keys',
      category: (last.bundled ? CATEGORIES[0] : CATEGORIES[1]) as CatalogCategory,
      actions: components.filter((c) => c.type === 'action').length,
      triggers: components.filter((c) => c.type === 'source').length,
    };
  }

  private fields(dir: string): string[] {
    const cached = this.fieldCache.get(dir);
    if (cached && Date.now() - cached.at < FIELDS_TTL_MS) return cached.fields;
    const fields = fieldsOf(dir);
    this.fieldCache.set(dir, { at: Date.now(), fields });
    return fields;
  }
}
