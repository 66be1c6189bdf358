/**
 * Builds the package: TypeScript to CommonJS with declarations (dist/cjs), then the ES module entry (dist/esm), a
 * wrapper that re-exports the CommonJS build's names. One copy of every class serves `require` and `import`, so an
 * error thrown by a client made in one is `instanceof` the class imported in the other (Node's "dual package
 * hazard"). `--clean` removes dist first (npm pack), so no output of a deleted source file is shipped.
 */
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const dist = path.join(root, 'dist');
if (process.argv.includes('--clean')) fs.rmSync(dist, { recursive: true, force: true });

// typescript is a devDependency; in the repository's workspace it is hoisted to the root's node_modules.
const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
// -b: when dist/.tsbuildinfo is newer than every source, only timestamps are compared (no program is built).
execFileSync(process.execPath, [tsc, '-b', path.join(root, 'tsconfig.json')], { cwd: root, stdio: 'inherit' });

const entry = path.join(dist, 'cjs', 'index.js');
delete require.cache[entry];
const names = Object.keys(require(entry)).filter((n) => n !== '__esModule' && n !== 'default').sort();
fs.mkdirSync(path.join(dist, 'esm'), { recursive: true });
fs.writeFileSync(
  path.join(dist, 'esm', 'index.mjs'),
  `// The ES module entry: the CommonJS build's exports (one copy of each class for import and require).\n` +
    `import client from '../cjs/index.js';\n\n` +
    `export const {\n${names.map((n) => `  ${n},`).join('\n')}\n} = client;\n`,
);
fs.writeFileSync(path.join(dist, 'esm', 'index.d.mts'), `export * from '../cjs/index.js';\n`);
