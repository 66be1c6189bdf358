/**
 * The client is its own npm package (packages/workflow-client): publishable (not private, engines, exports with
 * CommonJS and ES module entries and their types, dist/ in the tarball, built by prepare/prepack), with exactly the
 * dependencies its source imports, and the gateway depends on it — never the other way round.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import { CLIENT_VERSION } from '../../../packages/workflow-client/src/user-agent';

const ROOT = path.join(__dirname, '..', '..', '..');
const PKG_DIR = path.join(ROOT, 'packages', 'workflow-client');
const pkg = JSON.parse(readFileSync(path.join(PKG_DIR, 'package.json'), 'utf8'));
const rootPkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });

/** Bare module specifiers a file imports or requires (`@scope/name/sub` → `@scope/name`). */
function packagesImported(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|require\(\s*|import\(\s*)'([^'.][^']*)'/g)].map((m) => m[1]);
  return specs
    .filter((s) => !s.startsWith('node:') && !builtinModules.includes(s))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]));
}

describe('the workflow client package', () => {
  it('is publishable: a scoped name, a version, not private, engines, files', () => {
    expect(pkg.name).toBe('@graphql-domain-gateway/workflow-client');
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(pkg.private).toBeUndefined();
    expect(pkg.engines.node).toBe('>=20');
    expect(pkg.files).toEqual(expect.arrayContaining(['dist/cjs', 'dist/esm']));
    // npm pack and a git/workspace install build it
    expect(pkg.scripts.prepack).toMatch(/build/);
    expect(pkg.scripts.prepare).toMatch(/build/);
  });

  it('exports a CommonJS and an ES module entry, each with its types', () => {
    expect(pkg.exports['.']).toEqual({
      import: { types: './dist/esm/index.d.mts', default: './dist/esm/index.mjs' },
      require: { types: './dist/cjs/index.d.ts', default: './dist/cjs/index.js' },
    });
    expect(pkg.main).toBe('./dist/cjs/index.js');
    expect(pkg.types).toBe('./dist/cjs/index.d.ts');
  });

  it('depends on exactly the packages its source imports', () => {
    const used = new Set(files(path.join(PKG_DIR, 'src')).filter((f) => f.endsWith('.ts')).flatMap(packagesImported));
    expect([...used].sort()).toEqual(Object.keys(pkg.dependencies).sort());
    // its build tools are dev dependencies, and nothing of the gateway is among them
    expect(Object.keys(pkg.devDependencies).sort()).toEqual(['@types/node', 'typescript']);
  });

  it('never imports the gateway: no path out of the package', () => {
    for (const file of files(path.join(PKG_DIR, 'src')).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:from\s+|require\(\s*|import\(\s*)'(\.[^']*)'/g)) {
        const target = path.resolve(path.dirname(file), m[1]);
        expect({ file: path.relative(ROOT, file), target: path.relative(path.join(PKG_DIR, 'src'), target).startsWith('..') }).toEqual({
          file: path.relative(ROOT, file),
          target: false,
        });
      }
    }
  });

  it('the gateway depends on it as a workspace package and no longer exports a client of its own', () => {
    expect(rootPkg.workspaces).toContain('packages/workflow-client');
    expect(rootPkg.dependencies[pkg.name]).toBe(`^${pkg.version}`);
    expect(rootPkg.exports?.['./client']).toBeUndefined();
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
    expect(lock.packages[`node_modules/${pkg.name}`]).toEqual({ resolved: 'packages/workflow-client', link: true });
    expect(lock.packages['packages/workflow-client'].dependencies).toEqual(pkg.dependencies);
  });

  it('names its version in the User-Agent', () => {
    expect(CLIENT_VERSION).toBe(pkg.version);
  });
});
