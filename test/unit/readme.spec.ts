/**
 * The README stays true to the code: every environment variable the gateway reads is in its configuration table,
 * and every link in the README (and docs/, when present) resolves inside the repository.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

function files(dir: string, ext: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return files(p, ext);
    return p.endsWith(ext) ? [p] : [];
  });
}

/** Names read as `env.NAME` / `env['NAME']` (not written: `process.env.TZ = …` is the server setting its own zone). */
function envReads(source: string): string[] {
  const names: string[] = [];
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const m of code.matchAll(/\benv(?:\.([A-Z][A-Z0-9_]+)|\[['"]([A-Z][A-Z0-9_]+)['"]\])(?![A-Z0-9_])(?!\s*=[^=])/g)) names.push(m[1] ?? m[2]);
  return names;
}

describe('README', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));

  it('lists every environment variable the gateway reads in its configuration table', () => {
    const read = new Set(files(join(ROOT, 'src'), '.ts').flatMap((f) => envReads(readFileSync(f, 'utf8'))));
    expect(read.size).toBeGreaterThan(20);
    const documented = new Set([...table.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]));
    expect([...read].filter((n) => !documented.has(n)).sort()).toEqual([]);
  });

  it('has links that resolve inside the repository', () => {
    const docs = [join(ROOT, 'README.md'), ...files(join(ROOT, 'docs'), '.md'), join(ROOT, 'bench/README.md')].filter(existsSync);
    const broken: string[] = [];
    for (const doc of docs) {
      const text = readFileSync(doc, 'utf8').replace(/```[\s\S]*?```/g, '');
      // Paths outside a clone (the team's shared folder) mean nothing to a reader of the repository.
      for (const m of text.matchAll(/\.\.\/shared\/\S*/g)) broken.push(`${relative(ROOT, doc)}: ${m[0]}`);
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1];
        if (/^(https?:|mailto:|#)/.test(target)) continue;
        const path = resolve(dirname(doc), decodeURIComponent(target.split('#')[0]));
        if (!path.startsWith(ROOT + '/') || !existsSync(path)) broken.push(`${relative(ROOT, doc)}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
