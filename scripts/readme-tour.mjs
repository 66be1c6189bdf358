#!/usr/bin/env node
// Copies the tour into README.md: every "<!-- tour: name -->" block gets scripts/tour.sh's block of that name, every
// "<!-- tour-file: path -->" block the file's text. `node scripts/readme-tour.mjs` after changing the tour;
// test/unit/readme.spec.ts fails while they differ.
import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const script = readFileSync(new URL('scripts/tour.sh', root), 'utf8');
const blocks = new Map([...script.matchAll(/^# tour: (\S+)\n([\s\S]*?)^# end$/gm)].map((m) => [m[1], m[2]]));
const readme = readFileSync(new URL('README.md', root), 'utf8');
const missing = [];
const next = readme
  .replace(/^(<!-- tour: (\S+) -->\n```sh\n)[\s\S]*?^```$/gm, (all, head, name) => {
    if (!blocks.has(name)) return missing.push(`tour block ${name}`), all;
    return `${head}${blocks.get(name)}\`\`\``;
  })
  .replace(/^(<!-- tour-file: (\S+) -->\n```\w*\n)[\s\S]*?^```$/gm, (all, head, path) => `${head}${readFileSync(new URL(path, root), 'utf8')}\`\`\``);
if (missing.length) {
  console.error(`README.md shows what scripts/tour.sh does not have: ${missing.join(', ')}`);
  process.exit(1);
}
if (next !== readme) writeFileSync(new URL('README.md', root), next);
console.log(next === readme ? 'README.md already shows the tour' : 'README.md updated from scripts/tour.sh and scripts/tour/');
