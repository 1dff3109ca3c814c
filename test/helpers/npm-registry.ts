// A tiny npm registry for tests: serves packuments and tarballs of package folders written by the
// test, on 127.0.0.1, so installs never reach the network.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import semver from 'semver';

/** A running fake registry. */
export interface FakeRegistry {
  /** `http://127.0.0.1:PORT/` */
  url: string;
  /** Paths requested so far (decoded), in order. */
  requests: string[];
  /** Closes the server and its connections; later requests are refused. */
  stop: () => Promise<void>;
}

/** Writes a package folder (`package.json` plus `files`) under `parent` and returns its path. */
export function writePackage(parent: string, manifest: { name: string; version: string } & Record<string, unknown>, files: Record<string, string>): string {
  const dir = path.join(parent, `${manifest.name.replace('/', '+')}@${manifest.version}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/** One 512-byte ustar header for a regular file. */
function tarHeader(name: string, size: number): Buffer {
  const header = Buffer.alloc(512);
  const field = (offset: number, length: number, value: string) => header.write(value, offset, length, 'ascii');
  const octal = (offset: number, length: number, value: number) => field(offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
  if (Buffer.byteLength(name) > 100) throw new Error(`tar entry name too long for this helper: ${name}`);
  field(0, 100, name);
  octal(100, 8, 0o644);
  octal(108, 8, 0);
  octal(116, 8, 0);
  octal(124, 12, size);
  // A fixed mtime keeps tarballs (and so their integrity) the same from run to run.
  octal(136, 12, 0);
  field(148, 8, '        '); // the checksum is computed with its own field as spaces
  field(156, 1, '0');
  field(257, 6, 'ustar\0');
  field(263, 2, '00');
  let sum = 0;
  for (const byte of header) sum += byte;
  field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return header;
}

/** Every file under `dir`, relative, with `/` separators. */
function listFiles(dir: string, base = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, base), { withFileTypes: true })) {
    const rel = base ? `${base}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

/** The folder as npm publishes it: a gzipped tar whose entries sit under `package/`. */
export function packFolder(dir: string): Buffer {
  const parts: Buffer[] = [];
  for (const rel of listFiles(dir)) {
    const body = fs.readFileSync(path.join(dir, rel));
    parts.push(tarHeader(`package/${rel}`, body.length), body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024)); // two zero blocks end the archive
  return gzipSync(Buffer.concat(parts));
}

/**
 * Serves the package folders: `GET /<name>` (scoped: `/@scope%2fname` or `/@scope/name`) is the
 * packument, `GET /-/<file>.tgz` a tarball. The highest version of each package is its `latest`.
 */
export async function startNpmRegistry(dirs: string[]): Promise<FakeRegistry> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  const packuments = new Map<string, { name: string; 'dist-tags': { latest: string }; versions: Record<string, unknown> }>();
  const tarballs = new Map<string, Buffer>();
  for (const dir of dirs) {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name: string; version: string };
    const tgz = packFolder(dir);
    const file = `${manifest.name.replace('/', '-').replace(/^@/, '')}-${manifest.version}.tgz`;
    tarballs.set(`/-/${file}`, tgz);
    const doc = packuments.get(manifest.name) ?? { name: manifest.name, 'dist-tags': { latest: manifest.version }, versions: {} };
    doc.versions[manifest.version] = {
      ...manifest,
      _id: `${manifest.name}@${manifest.version}`,
      dist: {
        tarball: `${url}-/${file}`,
        shasum: createHash('sha1').update(tgz).digest('hex'),
        integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}`,
      },
    };
    const versions = Object.keys(doc.versions).sort(semver.rcompare);
    doc['dist-tags'].latest = versions[0] as string;
    packuments.set(manifest.name, doc);
  }

  const requests: string[] = [];
  server.on('request', (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', url).pathname);
    requests.push(pathname);
    const tgz = tarballs.get(pathname);
    if (tgz) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': tgz.length }).end(tgz);
      return;
    }
    const doc = packuments.get(pathname.slice(1));
    if (doc) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Not found' }));
  });

  return {
    url,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
