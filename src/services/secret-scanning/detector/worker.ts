/**
 * The detector pool's worker (./pool): runs the whole detection of a batch of files in a worker
 * thread (secretlint, our own rules, classification, positions), so the main thread does only I/O.
 *
 * Always loaded as compiled JavaScript (dist/), also under jest: a worker thread has Node's own module
 * loader, which cannot load TypeScript but can require() secretlint's ES modules (see ./engine), so here
 * the engine runs in this (worker) thread.
 */
import { detectSecrets, type DetectedSecret } from './index';

/** One file of a batch. */
export interface DetectFile {
  content: string;
  /** The file's path in the repository (rules use its name and extension). */
  path?: string;
}

/** The secrets of each file, in the order given. */
export default async function detectBatch(files: DetectFile[]): Promise<DetectedSecret[][]> {
  const out: DetectedSecret[][] = [];
  for (const f of files) out.push(await detectSecrets(f.content, f.path ? { path: f.path } : {}));
  return out;
}
