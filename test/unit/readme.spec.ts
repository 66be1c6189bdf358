/**
 * The README and docs/ stay true to the code: every environment variable the gateway reads is in the configuration
 * table of docs/operating.md (the README's short table names only variables that are read and listed there), and
 * every link in the README, docs/ and the packages' READMEs resolves inside the repository, anchors included.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

function files(dir: string, ext: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(p).isDirectory()) return files(p, ext);
    return p.endsWith(ext) ? [p] : [];
  });
}

/** Names read as `env.NAME` / `env['NAME']` (not written: `process.env.TZ = …` is the server setting its own zone). */
export function envReads(source: string): string[] {
  const names: string[] = [];
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const m of code.matchAll(/\benv(?:\.([A-Z][A-Z0-9_]+)|\[['"]([A-Z][A-Z0-9_]+)['"]\])(?![A-Z0-9_])(?!\s*=[^=])/g)) names.push(m[1] ?? m[2]);
  return names;
}

/** The text of a markdown section (from its heading to the next heading of the same or a higher level). */
function section(markdown: string, heading: string): string {
  const level = heading.match(/^#+/)![0].length;
  const start = markdown.split('\n').findIndex((l) => l.trim() === heading);
  if (start < 0) throw new Error(`no section "${heading}"`);
  const lines = markdown.split('\n').slice(start + 1);
  const end = lines.findIndex((l) => new RegExp(`^#{1,${level}} `).test(l));
  return lines.slice(0, end < 0 ? undefined : end).join('\n');
}

const tableNames = (text: string) => [...text.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]);

/** Markdown without fenced code blocks and inline code spans (links and headings there are not links or headings). */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of markdown.replace(/^```[\s\S]*?^```/gm, '').split('\n')) {
    const m = line.match(/^#{1,6}\s+(.*?)\s*#*\s*$/);
    if (!m) continue;
    const base = m[1]
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

const DOCS = [
  join(ROOT, 'README.md'),
  ...files(join(ROOT, 'docs'), '.md'),
  join(ROOT, 'bench/README.md'),
  ...files(join(ROOT, 'packages'), 'README.md'),
].filter(existsSync);

describe('README and docs/', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const operating = readFileSync(join(ROOT, 'docs/operating.md'), 'utf8');
  const read = new Set(files(join(ROOT, 'src'), '.ts').flatMap((f) => envReads(readFileSync(f, 'utf8'))));

  it('lists every environment variable the gateway reads in the configuration table of docs/operating.md', () => {
    expect(read.size).toBeGreaterThan(20);
    const documented = new Set(tableNames(section(operating, '## Configuration')));
    expect([...read].filter((n) => !documented.has(n)).sort()).toEqual([]);
    // …and nothing the gateway no longer reads.
    expect([...documented].filter((n) => !read.has(n)).sort()).toEqual([]);
  });

  it("the README's configuration table names only variables the gateway reads, as docs/operating.md has them", () => {
    const short = tableNames(section(readme, '## Configuration'));
    expect(short.length).toBeGreaterThan(3);
    const rows = (text: string) => new Map([...text.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \| ([^|]*) \|/gm)].map((m) => [m[1], m[2].trim()]));
    const full = rows(section(operating, '## Configuration'));
    for (const name of short) {
      expect(read.has(name) ? name : `${name} (not read by the gateway)`).toBe(name);
      // The same default in both tables.
      expect([name, rows(section(readme, '## Configuration')).get(name)]).toEqual([name, full.get(name)]);
    }
  });

  it('has links that resolve inside the repository, anchors included', () => {
    expect(DOCS.map((d) => relative(ROOT, d))).toEqual(expect.arrayContaining(['README.md', 'docs/operating.md', 'docs/architecture.md']));
    const broken: string[] = [];
    for (const doc of DOCS) {
      const raw = readFileSync(doc, 'utf8');
      const text = prose(raw);
      const where = relative(ROOT, doc);
      // Paths outside a clone (the team's shared folder) mean nothing to a reader of the repository.
      for (const m of raw.matchAll(/\.\.\/shared\/\S*/g)) broken.push(`${where}: ${m[0]}`);
      const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g), ...text.matchAll(/<(https?:[^>\s]+)>/g)].map((m) => m[1]);
      for (const target of targets) {
        if (/^https?:/.test(target)) {
          // Only this gateway's own demo URLs: everything else a reader needs is in the repository.
          if (!/^https?:\/\/(localhost|127\.0\.0\.1)[:/]/.test(target)) broken.push(`${where}: ${target} (outside the repository)`);
          continue;
        }
        if (/^mailto:/.test(target)) continue;
        const [path, anchor] = target.split('#');
        const file = path === '' ? doc : resolve(dirname(doc), decodeURIComponent(path));
        if (!file.startsWith(ROOT + '/') || !existsSync(file)) {
          broken.push(`${where}: ${target}`);
          continue;
        }
        if (anchor !== undefined && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(anchor)) {
          broken.push(`${where}: ${target} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('names only repository files and folders that exist', () => {
    const missing: string[] = [];
    // bench/README.md is a history: the files it names were there when each entry was written.
    for (const doc of DOCS.filter((d) => d !== join(ROOT, 'bench/README.md'))) {
      const text = readFileSync(doc, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
      for (const m of text.matchAll(/`((?:src|test|resolvers|entities|schema|scripts|packages|bench|docs)\/[A-Za-z0-9_./-]+)`/g)) {
        // Paths are written from the repository root (a package's README from its own folder).
        const base = doc.startsWith(join(ROOT, 'packages') + '/') ? [ROOT, dirname(doc)] : [ROOT];
        if (!base.some((b) => existsSync(join(b, m[1])))) missing.push(`${relative(ROOT, doc)}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("shows the tour's blocks and files exactly as scripts/tour.sh runs them", () => {
    const script = readFileSync(join(ROOT, 'scripts/tour.sh'), 'utf8');
    const run = [...script.matchAll(/^# tour: (\S+)\n([\s\S]*?)^# end$/gm)].map((m) => [m[1], m[2]]);
    expect(run.length).toBeGreaterThan(5);
    const shown = [...readme.matchAll(/^<!-- tour: (\S+) -->\n```sh\n([\s\S]*?)^```$/gm)].map((m) => [m[1], m[2]]);
    const files = [...readme.matchAll(/^<!-- tour-file: (\S+) -->\n```\w*\n([\s\S]*?)^```$/gm)].map((m) => [m[1], m[2]]);
    // A block that only runs a tour file is shown as that file's text.
    const runsShownFile = ([, text]: string[]) => files.some(([f]) => text === `node ${f}\n`);
    // Same blocks, same order, same text: a command changed in one place only fails here (node scripts/readme-tour.mjs).
    expect(shown).toEqual(run.filter((b) => !runsShownFile(b)));
    expect(run.filter(runsShownFile).length).toBe(3);
    expect(files.map(([f]) => f).sort()).toEqual(readdirSync(join(ROOT, 'scripts/tour')).map((f) => `scripts/tour/${f}`).sort());
    for (const [file, text] of files) expect([file, text]).toEqual([file, readFileSync(join(ROOT, file), 'utf8')]);
  });

  it('anchors are computed as GitHub computes them (so the link check above can fail)', () => {
    const a = anchors('# Workflow jobs\n## Running jobs\n## Running jobs\n### `GET /events` and .ics, too!\n```\n# not a heading\n```\n');
    expect([...a]).toEqual(['workflow-jobs', 'running-jobs', 'running-jobs-1', 'get-events-and-ics-too']);
  });
});
