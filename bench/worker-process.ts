/**
 * Starts an `npm run worker` process (dist/src/worker.js) and resolves once it says it is ready: used by the
 * jobs bench (two workers on Redis) and the workers e2e test (kill one midway).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

export interface WorkerProcess {
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  out(): string;
  exited: Promise<number | null>;
}

/** dist/src/worker.js, from compiled (dist/bench) or TypeScript (bench/, under jest) code. */
function workerScript(): string {
  const distRoot = __filename.endsWith('.js') ? path.join(__dirname, '..') : path.join(__dirname, '..', 'dist');
  return path.join(distRoot, 'src', 'worker.js');
}

export function startWorkerProcess(env: Record<string, string>, timeoutMs = 30_000): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [workerScript()], { cwd: path.join(__dirname, '..'), env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`a worker did not start:\n${out}`)), timeoutMs);
    child.stdout!.on('data', () => {
      if (out.includes('workflow worker ready')) {
        clearTimeout(timer);
        resolve({ child, out: () => out, exited });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`a worker exited with ${code}:\n${out}`));
    });
  });
}
