/**
 * Run the built server (`node dist/src/main.js`) as a real process, the way `npm start` does.
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';

export const ROOT = path.join(__dirname, '..', '..');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

export async function startServerProcess(env: Record<string, string>, timeoutMs = 30_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'src', 'main.js')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${out}\n${err}`)), timeoutMs);
    const check = () => {
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}\n${err}`));
    });
  });
  return { child, url, stdout: () => out, stderr: () => err, exited };
}

/** SIGKILL, as a crash: resolves when the process is gone. */
export async function killHard(s: Pick<ServerProcess, 'child' | 'exited'>): Promise<void> {
  s.child.kill('SIGKILL');
  await s.exited;
}

/** The tests' cleanup: SIGKILLs the processes of `running` that are still alive and waits for them. */
export async function killStillRunning(running: Array<Pick<ServerProcess, 'child' | 'exited'>>): Promise<void> {
  for (const s of running) {
    if (s.child.exitCode === null && s.child.signalCode === null) await killHard(s);
  }
}
