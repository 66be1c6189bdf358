/**
 * Build once before the suite: tests that run the real processes (`node dist/src/main.js`,
 * `node dist/src/cli.js`) need dist/ even on a clean clone, and so the workflow client package's dist/, which the
 * built gateway requires. Both builds are incremental and use `tsc -b`, whose up-to-date check compares timestamps
 * only (about 1.5 s of CPU where `tsc -p` rebuilt the program for 12 s even with nothing to emit).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * node_modules installed before the workflow client became a workspace package lack npm's link to it, and the
 * built gateway could not load it. Make the link `npm install` makes (relative, like npm's) and say so once.
 */
function linkWorkspace(root: string): void {
  const link = path.join(root, 'node_modules', '@graphql-domain-gateway', 'workflow-client');
  if (fs.existsSync(path.join(link, 'package.json'))) return;
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.rmSync(link, { force: true });
  fs.symlinkSync(path.join('..', '..', 'packages', 'workflow-client'), link, 'dir');
  console.warn('test setup: linked node_modules/@graphql-domain-gateway/workflow-client to packages/workflow-client (run npm install to refresh node_modules)');
}

export default function globalSetup(): void {
  const root = path.join(__dirname, '..');
  linkWorkspace(root);
  execFileSync(process.execPath, [path.join(root, 'packages', 'workflow-client', 'scripts', 'build.js')], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc', { paths: [root] }), '-b', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
}
