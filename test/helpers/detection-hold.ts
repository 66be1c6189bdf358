/**
 * Holding secret detection in a real server process: the process gets `env()` (a preload, hold-detection.js, and
 * the hold's file); while the hold is on, each detection in its worker threads waits, and `running()` resolves once
 * one does. A test so keeps a scan in progress, with a detection task in a worker, for exactly as long as its
 * assertions take.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const PRELOAD = path.join(__dirname, 'hold-detection.js');
const POLL_MS = 20;

export class DetectionHold {
  private readonly file: string;

  constructor(dir: string) {
    this.file = path.join(dir, 'detection-hold');
  }

  /** The environment of a server process this hold applies to. */
  env(): Record<string, string> {
    return { NODE_OPTIONS: `--require ${JSON.stringify(PRELOAD)}`, DETECTION_HOLD_FILE: this.file };
  }

  /** From now on, detections wait (those already past the hold run on). */
  hold(): void {
    fs.rmSync(`${this.file}.running`, { force: true });
    fs.writeFileSync(this.file, '');
  }

  /** Resolves once a detection is waiting on the hold in a worker thread (threads start at nice +10: on a busy machine, late). */
  async running(timeoutMs = 300_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!fs.existsSync(`${this.file}.running`)) {
      if (Date.now() > deadline) throw new Error('no detection reached the hold');
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  /** Lets the held detections (and every later one) run. */
  release(): void {
    fs.rmSync(this.file, { force: true });
  }
}
