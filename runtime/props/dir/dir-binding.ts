// What `this.<dir prop>` is inside the sandbox: the folder, and `open(path)` for files in it, as
// the registry's components use File Stash (`this.dir.open(p).fromReadableStream(stream, type, size)`).
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import type { PropBinding } from '../shared/kind-interface';

/** A file of a dir prop's folder, as `fromReadableStream` and `fromFile` describe it. */
export interface DirFile {
  path: string;
  get_url: string;
  type: string | null;
  size: number;
}

/** `this.<dir prop>`: `path` is its folder; `open(relativePath)` a file in it. */
export function dirProp(folder: string | undefined, write: boolean): Record<string, unknown> | undefined {
  if (!folder) return undefined;
  const inside = (relative: string): string => {
    const full = path.resolve(folder, String(relative).replace(/^\/+/, ''));
    if (full !== folder && !full.startsWith(folder + path.sep)) throw new Error(`dir: "${relative}" is outside the folder ${folder}`);
    return full;
  };
  const writable = (what: string) => {
    if (!write) throw new Error(`dir: ${what} needs a writable dir; this prop has accessMode "read"`);
  };
  const describe = (full: string, type: string | null | undefined): DirFile => ({ path: full, get_url: pathToFileURL(full).href, type: type ?? null, size: fs.statSync(full).size });
  return {
    path: folder,
    open(relative: string) {
      const full = inside(relative);
      return {
        path: full,
        async fromReadableStream(stream: Readable, type?: string, _size?: number): Promise<DirFile> {
          writable('fromReadableStream');
          await fs.promises.mkdir(path.dirname(full), { recursive: true });
          await pipeline(stream, fs.createWriteStream(full));
          return describe(full, type);
        },
        async fromFile(localPath: string, type?: string): Promise<DirFile> {
          writable('fromFile');
          await fs.promises.mkdir(path.dirname(full), { recursive: true });
          await fs.promises.copyFile(localPath, full);
          return describe(full, type);
        },
        toBuffer: (): Promise<Buffer> => fs.promises.readFile(full),
        toFile: (localPath: string): Promise<void> => fs.promises.copyFile(full, localPath),
        delete: async (): Promise<void> => {
          writable('delete');
          await fs.promises.rm(full, { force: true });
        },
      };
    },
  };
}

/** `this.<dir prop>`: its folder as the service granted it (none when the prop has no folder). */
export const bindDir: PropBinding = (name, _def, host) => dirProp(host.context.dirs[name]?.path, host.context.dirs[name]?.write ?? false);
