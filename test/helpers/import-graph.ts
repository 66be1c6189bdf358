/**
 * The runtime import graph of the TypeScript sources: each file is compiled the way the build compiles it
 * (TypeScript's own transpiler, so imports used only as types are dropped as in the emitted JavaScript) and its
 * `require()`s of relative paths are the edges. Cycles are its strongly connected components (Tarjan).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

export interface ImportGraph {
  /** file (relative to the root) -> files it requires at runtime */
  edges: Map<string, string[]>;
  /** file -> the packages (bare specifiers, e.g. `typeorm`, `node:fs`) it requires at runtime */
  packages?: Map<string, string[]>;
}

function sourceFiles(root: string, dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) sourceFiles(root, rel, out);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && !e.name.endsWith('.spec.ts')) out.push(rel);
  }
  return out;
}

function resolveRelative(root: string, from: string, spec: string): string | undefined {
  const base = path.join(path.dirname(from), spec);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts'), base]) {
    if (candidate.endsWith('.ts') && fs.existsSync(path.join(root, candidate))) return candidate;
  }
  return undefined;
}

/**
 * Where each file's emitted JavaScript is kept between runs (node_modules/.cache, as other tools keep theirs). CI's
 * PostgreSQL suite filter, the database-free and the import-cycle tests each read the whole tree the same way, and
 * transpiling it is most of their time. An entry is keyed by everything the output depends on (TypeScript's version,
 * the compiler options, the file's name and text), so a changed file or option is transpiled again.
 * `IMPORT_GRAPH_CACHE=0` turns it off.
 */
const REPO_ROOT = path.resolve(__dirname, '..', '..');
const CACHE_DIR = path.join(REPO_ROOT, 'node_modules', '.cache', 'import-graph');

function transpiled(root: string, file: string, compilerOptions: ts.CompilerOptions): string {
  const source = fs.readFileSync(path.join(root, file), 'utf8');
  const transpile = () => ts.transpileModule(source, { compilerOptions, fileName: file }).outputText;
  // Only this repository's files: the tests' throwaway trees would only add entries never read again.
  if (process.env.IMPORT_GRAPH_CACHE === '0' || path.resolve(root) !== REPO_ROOT) return transpile();
  const key = createHash('sha256').update(JSON.stringify([ts.version, compilerOptions, file, source])).digest('hex');
  const entry = path.join(CACHE_DIR, key.slice(0, 2), `${key}.js`);
  try {
    return fs.readFileSync(entry, 'utf8');
  } catch {
    // not kept yet
  }
  const out = transpile();
  try {
    // Written under a temporary name and renamed: a concurrent reader (the other suite) sees a whole entry or none.
    fs.mkdirSync(path.dirname(entry), { recursive: true });
    const tmp = `${entry}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    fs.writeFileSync(tmp, out);
    fs.renameSync(tmp, entry);
  } catch {
    // A read-only tree only loses the reuse.
  }
  return out;
}

/** The compiler options of `root`'s tsconfig.json (the build's view of imports: type-only ones are dropped). */
export function tsconfigOptions(root: string): ts.CompilerOptions {
  const file = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
  return ts.parseJsonConfigFileContent(file.config, ts.sys, root).options;
}

/** The runtime imports among the files under `dirs` (and the files they reach through relative paths). */
export function importGraph(root: string, dirs: string[], compilerOptions: ts.CompilerOptions): ImportGraph {
  return importGraphFrom(root, dirs.flatMap((d) => sourceFiles(root, d)), compilerOptions);
}

/** The runtime imports of `files` (relative to the root) and of every file they reach through relative paths. */
export function importGraphFrom(root: string, files: string[], compilerOptions: ts.CompilerOptions): Required<ImportGraph> {
  const edges = new Map<string, string[]>();
  const packages = new Map<string, string[]>();
  const queue = [...files];
  while (queue.length) {
    const file = queue.pop()!;
    if (edges.has(file)) continue;
    const out = transpiled(root, file, compilerOptions);
    const deps: string[] = [];
    const bare: string[] = [];
    // import() too: node16 modules keep dynamic imports as they are.
    for (const m of out.matchAll(/\b(?:require|import)\((["'])([^"']*)\1\)/g)) {
      if (!m[2].startsWith('.')) bare.push(m[2]);
      else {
        const target = resolveRelative(root, file, m[2]);
        if (target) deps.push(target);
      }
    }
    edges.set(file, deps);
    packages.set(file, bare);
    queue.push(...deps.filter((d) => !edges.has(d)));
  }
  return { edges, packages };
}

/** Every strongly connected component of more than one file (or a file requiring itself): each holds a cycle. */
export function importCycles(graph: ImportGraph): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    // Iterative Tarjan: the graph has hundreds of files; recursion depth is no concern, but keep it simple and flat.
    const work: Array<[string, number]> = [[v, 0]];
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    while (work.length) {
      const top = work[work.length - 1];
      const [node, i] = top;
      const next = graph.edges.get(node) ?? [];
      if (i < next.length) {
        top[1]++;
        const w = next[i];
        if (!idx.has(w)) {
          idx.set(w, index);
          low.set(w, index++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(node, Math.min(low.get(node)!, idx.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent)!, low.get(node)!));
      }
      if (low.get(node) === idx.get(node)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== node);
        if (component.length > 1 || (graph.edges.get(node) ?? []).includes(node)) out.push(component.sort());
      }
    }
  };
  for (const v of [...graph.edges.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}
