// The layer rule of docs/architecture.md, read from the code's own imports (VS Code's layering
// lint is the model): a runtime file imports only its own layer or lower ones, type imports
// included; folders never import each other in a loop; the renderer reaches the runtime only
// through runtime/contract; Electron main only through the runtime's public entry.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

/** Lowest first; a file may import its own layer or any before it. */
const LAYERS = ['contract', 'lib', 'store', 'props', 'sandbox', 'components', 'engine', 'testing', 'delivery', 'remote', 'sync', 'http', 'service', 'cli'] as const;

/** Files at the runtime's root and the layer they belong to. */
const ROOT_FILES: Record<string, (typeof LAYERS)[number]> = { 'service.ts': 'service', 'index.ts': 'service' };

/** Longest runtime file, in lines. */
const MAX_LINES = 400;

/** Files still over the limit while they are being split (issue 20); each entry is removed as its file is. */
const SPLITTING = new Set<string>();

interface Import {
  from: string;
  to: string;
  line: number;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(entry.name)) out.push(full);
  }
  return out;
}

function resolve(from: string, spec: string): string {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return path.relative(process.cwd(), candidate);
  }
  return path.relative(process.cwd(), base);
}

/** Every import, export-from and import() of a file, with its resolved target (bare specifiers as given). */
function importsOf(file: string): Import[] {
  const text = fs.readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Import[] = [];
  const add = (node: ts.Node, spec: string, typeOnly: boolean) => {
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    found.push({ from: file, to: spec.startsWith('.') ? resolve(file, spec) : spec, line, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) add(node, node.moduleSpecifier.text, !!node.importClause?.isTypeOnly);
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) add(node, node.moduleSpecifier.text, node.isTypeOnly);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) add(node, node.arguments[0].text, false);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) add(node, node.argument.literal.text, true);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** The layer of a runtime file (`runtime/<layer>/…` or a root file). */
function layerOf(file: string): (typeof LAYERS)[number] | null {
  const parts = file.split(path.sep);
  if (parts[0] !== 'runtime') return null;
  if (parts.length === 2) return ROOT_FILES[parts[1] as string] ?? null;
  const layer = parts[1] as (typeof LAYERS)[number];
  return LAYERS.includes(layer) ? layer : null;
}

const runtimeFiles = sourceFiles('runtime').map((f) => path.relative(process.cwd(), f));
const runtimeImports = runtimeFiles.flatMap(importsOf);
const where = (i: Import) => `${i.from}:${i.line} imports ${i.to}${i.typeOnly ? ' (type only)' : ''}`;

describe('architecture', () => {
  it('puts every runtime file in a layer', () => {
    const homeless = runtimeFiles.filter((f) => layerOf(f) === null);
    assert.deepEqual(homeless, [], `files outside the layers of docs/architecture.md (${LAYERS.join(' < ')})`);
  });

  it('has no runtime import that points up a layer, types included', () => {
    const upward = runtimeImports.filter((i) => {
      const from = layerOf(i.from);
      const to = layerOf(i.to);
      return from !== null && to !== null && LAYERS.indexOf(to) > LAYERS.indexOf(from);
    });
    assert.deepEqual(upward.map(where), [], `imports must point down: ${LAYERS.join(' < ')}`);
  });

  it('keeps contract/ free of imports beyond itself', () => {
    const outside = runtimeImports.filter((i) => layerOf(i.from) === 'contract' && layerOf(i.to) !== 'contract');
    assert.deepEqual(outside.map(where), [], 'contract/ holds types and constants only: it imports nothing');
  });

  it('keeps the component host (sandbox/child) apart from the service side', () => {
    // Code in the host process may use contract, lib, props and the frame codec it shares with the service.
    const allowed = (to: string) => ['contract', 'lib', 'props'].includes(layerOf(to) ?? '') || to.startsWith(path.join('runtime', 'sandbox', 'child')) || to === path.join('runtime', 'sandbox', 'frames.ts');
    const crossing = runtimeImports.filter((i) => i.from.startsWith(path.join('runtime', 'sandbox', 'child')) && i.to.startsWith('runtime') && !allowed(i.to));
    assert.deepEqual(crossing.map(where), []);
  });

  it('has no folders that import each other in a loop', () => {
    const folderOf = (file: string) => path.dirname(file);
    const edges = new Map<string, Set<string>>();
    const example = new Map<string, Import>();
    for (const i of runtimeImports) {
      if (!i.to.startsWith('runtime')) continue;
      const a = folderOf(i.from);
      const b = folderOf(i.to);
      if (a === b) continue;
      if (!edges.has(a)) edges.set(a, new Set());
      edges.get(a)!.add(b);
      if (!example.has(`${a}>${b}`)) example.set(`${a}>${b}`, i);
    }
    // Tarjan's strongly connected components: any with two or more folders is a loop.
    let index = 0;
    const indices = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const loops: string[][] = [];
    const connect = (v: string) => {
      indices.set(v, index);
      low.set(v, index++);
      stack.push(v);
      onStack.add(v);
      for (const w of edges.get(v) ?? []) {
        if (!indices.has(w)) {
          connect(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
      }
      if (low.get(v) === indices.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== v);
        if (component.length > 1) loops.push(component.sort());
      }
    };
    for (const v of edges.keys()) if (!indices.has(v)) connect(v);
    const explain = loops.map((loop) => {
      const inLoop = new Set(loop);
      const links = [...example.entries()].filter(([k]) => {
        const [a, b] = k.split('>') as [string, string];
        return inLoop.has(a) && inLoop.has(b);
      });
      return `${loop.join(' ⇄ ')}: ${links.map(([, i]) => where(i)).join('; ')}`;
    });
    assert.deepEqual(explain, []);
  });

  it('keeps every runtime file under the line limit', () => {
    const long = runtimeFiles
      .map((f) => ({ f, lines: fs.readFileSync(f, 'utf8').split('\n').length }))
      .filter(({ f, lines }) => lines > MAX_LINES && !SPLITTING.has(f))
      .map(({ f, lines }) => `${f}: ${lines} lines`);
    assert.deepEqual(long, [], `split files over ${MAX_LINES} lines by the jobs they hold`);
  });

  it('gives no two runtime files or folders the same name', () => {
    // props/<kind>/ folders follow one shape (Miniflare's plugin habit): their files share roles, not names.
    const names = new Map<string, string[]>();
    const note = (name: string, where: string) => names.set(name, [...(names.get(name) ?? []), where]);
    for (const f of runtimeFiles) note(`file ${path.basename(f).replace(/\.tsx?$/, '')}`, f);
    const folders = new Set(runtimeFiles.map((f) => path.dirname(f)).filter((d) => d !== 'runtime'));
    for (const d of folders) note(`folder ${path.basename(d)}`, d);
    const repeated = [...names.entries()].filter(([, list]) => list.length > 1).map(([name, list]) => `${name}: ${list.join(', ')}`);
    assert.deepEqual(repeated, []);
  });

  it('lets the renderer reach the runtime only through runtime/contract', () => {
    const crossing = sourceFiles(path.join('renderer', 'src'))
      .map((f) => path.relative(process.cwd(), f))
      .flatMap(importsOf)
      .filter((i) => i.to.startsWith('runtime') && !i.to.startsWith(path.join('runtime', 'contract')));
    assert.deepEqual(crossing.map(where), []);
  });

  it('keeps the renderer in its rooms: api/ alone, ui/ below the features, screens off the /v1 client', () => {
    const src = path.join('renderer', 'src');
    const files = sourceFiles(src).map((f) => path.relative(process.cwd(), f));
    const imports = files.flatMap(importsOf).filter((i) => i.to.startsWith(src));
    const room = (file: string) => path.relative(src, file).split(path.sep)[0];
    const wrong = imports.filter(
      (i) =>
        // The client and streams know nothing of screens.
        (room(i.from) === 'api' && room(i.to) !== 'api') ||
        // Shared widgets serve every feature and belong to none.
        (room(i.from) === 'ui' && room(i.to) === 'features') ||
        // A screen gets its data from its feature's data hooks and stores, never from the client.
        (i.from.endsWith('.tsx') && i.to === path.join(src, 'api', 'v1.ts')),
    );
    assert.deepEqual(wrong.map(where), []);
    const homeless = files.filter((f) => !['app', 'api', 'ui', 'features', 'main.tsx'].includes(room(f) ?? ''));
    assert.deepEqual(homeless, [], 'renderer files live in app/, api/, ui/ or features/<area>/');
  });

  it('lets Electron main reach the runtime only through its public entry', () => {
    const crossing = sourceFiles('main')
      .map((f) => path.relative(process.cwd(), f))
      .flatMap(importsOf)
      .filter((i) => i.to.startsWith('runtime') && i.to !== path.join('runtime', 'index.ts'));
    assert.deepEqual(crossing.map(where), []);
  });
});
