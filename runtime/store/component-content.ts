// Saved components' texts (their code, the bundle with its inline source map, and their original
// files) are kept out of metadata.json, in content-addressed files `DATA_DIR/components/<sha256>.<kind>`
// (lib/content-files.ts) that a record names: a save writes its new texts once and a small record,
// so its cost does not grow with the saves made before it, and nothing holds old bundles in memory.
// A record read from disk reads each text from its file when asked for it.
import fs from 'node:fs';
import path from 'node:path';
import { type ContentFiles, contentNamesIn, isContentName } from '../lib/content-files';
import { StoredContentMissing } from '../lib/error-kinds';
import type { FileProblem } from '../lib/file-problems';
import type { ComponentRecord, MetadataShape } from './metadata';

/** The content files a saved component's texts are kept in, by name. */
export interface ComponentContent {
  code: string;
  bundle: string;
  files?: string;
}

/** A component record as metadata.json keeps it: its texts named, not inline. */
export type StoredComponent = Omit<ComponentRecord, 'code' | 'bundle' | 'files'> & { content: ComponentContent };

/** The kind (file extension) of each text. */
const KINDS = { code: 'src', bundle: 'js', files: 'json' } as const;
type Text = keyof typeof KINDS;
const TEXTS = Object.keys(KINDS) as Text[];

/** A text a record holds in memory (new, read inline, or set since), to be written to its content file. */
export interface HeldText {
  record: ComponentRecord;
  text: Text;
  /** The value the record holds (the file list as an array). */
  held: unknown;
  /** What the content file holds. */
  content: string;
  name: string;
}

/** The content file each text of a record reads from; a text set in memory since is not here. */
const named = new WeakMap<ComponentRecord, Partial<ComponentContent>>();

/** The texts of saved components, kept in a folder of content files. */
export class ComponentTexts {
  constructor(private readonly files: ContentFiles) {}

  /**
   * Makes records as read from metadata.json whole: each text its `content` names is read from its
   * file when asked for (each time: nothing is held). A text kept inline (by an older Spout, or
   * edited by hand) wins, and is moved to a file by the next write. True when any text was inline.
   */
  attach(records: ComponentRecord[]): boolean {
    let inline = false;
    for (const record of records as Array<ComponentRecord & { content?: Partial<Record<Text, unknown>> }>) {
      const content = record.content ?? {};
      delete record.content;
      for (const text of TEXTS) {
        const name = content[text];
        if (record[text] === undefined && typeof name === 'string' && isContentName(name)) this.readLazily(record, text, name);
      }
      if (this.held(record).length > 0) inline = true;
    }
    return inline;
  }

  /**
   * The records as metadata.json keeps them, now, and the texts they hold in memory, which must be
   * in their content files (`keep`) before a metadata.json naming them is written.
   */
  stored(records: readonly ComponentRecord[]): { components: StoredComponent[]; held: HeldText[] } {
    const components: StoredComponent[] = [];
    const held: HeldText[] = [];
    for (const record of records) {
      const texts = this.held(record);
      held.push(...texts);
      const content: Partial<ComponentContent> = {};
      for (const text of TEXTS) {
        const name = texts.find((h) => h.text === text)?.name ?? (Object.getOwnPropertyDescriptor(record, text)?.get ? named.get(record)?.[text] : undefined);
        if (name) content[text] = name;
      }
      // Its own fields only: reading a text would read its file.
      const fields: Record<string, unknown> = {};
      for (const key of Object.keys(record)) if (!(key in KINDS)) fields[key] = record[key as keyof ComponentRecord];
      components.push({ ...(fields as Omit<ComponentRecord, Text>), content: content as ComponentContent });
    }
    return { components, held };
  }

  /** Writes held texts to their content files; each record still holding the same value then reads it from its file. */
  async keep(held: readonly HeldText[]): Promise<void> {
    await this.files.put(held.map(({ name, content }) => ({ name, text: content })));
    for (const { record, text, held: value, name } of held) {
      const own = Object.getOwnPropertyDescriptor(record, text);
      if (own && 'value' in own && own.value === value) this.readLazily(record, text, name);
    }
  }

  /** Every content file the records name. */
  names(records: readonly ComponentRecord[]): Set<string> {
    const names = new Set<string>();
    for (const record of records) for (const name of Object.values(named.get(record) ?? {})) names.add(name);
    return names;
  }

  /**
   * Removes content files nothing names: not the records in memory (all written: the caller runs
   * this between writes), nor any version of metadata.json on disk (its copy, the version before,
   * records set aside), so a version a start may restore keeps every file it names.
   */
  sweep(records: readonly ComponentRecord[], metadataFile: string): string[] {
    const keep = this.names(records);
    const dir = path.dirname(metadataFile);
    const base = path.basename(metadataFile);
    for (const name of fs.readdirSync(dir)) {
      if (!name.startsWith(base) || name.endsWith('.tmp')) continue;
      for (const mentioned of contentNamesIn(fs.readFileSync(path.join(dir, name), 'utf8'))) keep.add(mentioned);
    }
    return this.files.sweep(keep);
  }

  /** Components naming a content file that is missing (or, with `verify`, whose content is not what its name says), each with the fix. */
  problems(data: Pick<MetadataShape, 'components' | 'sources'>, metadataFile: string, verify: boolean): FileProblem[] {
    const problems: FileProblem[] = [];
    for (const record of data.components) {
      for (const [text, name] of Object.entries(named.get(record) ?? {})) {
        const wrong = verify ? this.files.check(name) : this.files.has(name) ? null : 'missing';
        if (!wrong) continue;
        const what = wrong === 'missing' ? 'is missing' : 'is damaged (its content is not the text its name is the hash of)';
        problems.push({ file: metadataFile, message: `component ${record.id} keeps its ${text} in components/${name}, which ${what}: ${fixFor(record, data)}` });
      }
    }
    return problems;
  }

  /** The texts a record holds in memory, each with the content file it goes to. */
  private held(record: ComponentRecord): HeldText[] {
    const held: HeldText[] = [];
    for (const text of TEXTS) {
      const own = Object.getOwnPropertyDescriptor(record, text);
      if (!own || !('value' in own) || own.value === undefined) continue;
      const content = text === 'files' ? JSON.stringify(own.value) : String(own.value);
      held.push({ record, text, held: own.value, content, name: this.files.nameOf(content, KINDS[text]) });
    }
    return held;
  }

  /** Defines `text` on a record as read from content file `name` whenever asked for; setting it holds the new value until a write keeps it. */
  private readLazily(record: ComponentRecord, text: Text, name: string): void {
    const files = this.files;
    named.set(record, { ...named.get(record), [text]: name });
    Object.defineProperty(record, text, {
      enumerable: true,
      configurable: true,
      get() {
        let value: string;
        try {
          value = files.read(name);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          throw new StoredContentMissing(`component ${record.id} keeps its ${text} in ${files.pathOf(name)}, which is missing from the data dir; restore it from a backup, or save the code again (\`spout doctor\` names what uses it)`);
        }
        return text === 'files' ? JSON.parse(value) : value;
      },
      set(value: unknown) {
        const { [text]: _replaced, ...rest } = named.get(record) ?? {};
        named.set(record, rest);
        Object.defineProperty(record, text, { value, writable: true, enumerable: true, configurable: true });
      },
    });
  }
}

/** What to do about a component's missing text, naming the sources it stops. */
function fixFor(component: Pick<ComponentRecord, 'id'>, data: Pick<MetadataShape, 'sources'>): string {
  const sources = data.sources.filter((s) => s.component_id === component.id);
  const first = sources[0];
  if (!first) return 'restore the file from a backup, or save the component again (POST /v1/components with its code)';
  const named = sources.map((s) => `source ${s.id} ("${s.name}")`).join(', ');
  return `${named} cannot load until the file is restored from a backup or the source's code is saved again (\`spout update ${first.id} --code FILE\`, or PUT /v1/sources/${first.id} with component_code)`;
}
