/**
 * Build once before the suite: tests that run the real processes (`node dist/src/main.js`,
 * `node dist/src/cli.js`) need dist/ even on a clean clone, and so the workflow client package's dist/, which the
 * built gateway requires. Both builds are incremental.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

export default function globalSetup(): void {
  const root = path.join(__dirname, '..');
  execFileSync(process.execPath, [path.join(root, 'packages', 'workflow-client', 'scripts', 'build.js')], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc', { paths: [root] }), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
}
