/**
 * Jest's node environment that records each test file's CPU (opt-in: JEST_CPU_LOG=<file.jsonl>, see jest.config.ts).
 * From the environment's construction to its teardown it takes the worker's own user+system time
 * (process.cpuUsage) and the time of the children it reaped meanwhile (/proc/self/stat cutime+cstime: spawned
 * servers, CLIs, npm), and appends one JSON line per file. Module loading and transforms happen between the two,
 * so they are counted; a worker's own start is not. It also counts the processes each file spawned, by command. Summarise with `node test/tools/cpu-report.js <file.jsonl>`.
 */
const fs = require('node:fs');
const path = require('node:path');
const { ChildProcess } = require('node:child_process');
const NodeEnvironment = require('jest-environment-node').TestEnvironment;

/** The processes this worker spawned (every child_process function ends in ChildProcess#spawn): count and commands. */
const spawned = { count: 0, commands: {} };
const spawn = ChildProcess.prototype.spawn;
ChildProcess.prototype.spawn = function (options) {
  spawned.count++;
  const args = (options && options.args) || [];
  // The command and its script (or first argument); inline code (node -e) is named by its flag only.
  const first = args.slice(1).find((a) => !a.startsWith('-') || ['-e', '--eval', '-p', '--print'].includes(a)) || '';
  const script = first.startsWith('-') ? first : path.relative(process.cwd(), first) || first;
  const key = `${path.basename(args[0] || options.file || '')} ${script}`.trim().slice(0, 100);
  spawned.commands[key] = (spawned.commands[key] || 0) + 1;
  return spawn.apply(this, arguments);
};

const TICK_US = 1e6 / 100; // USER_HZ: 100 on Linux

/** Reaped children's user and system time, in microseconds (fields 16 and 17 of /proc/self/stat). */
function childrenCpu() {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(f[13]) * TICK_US, system: Number(f[14]) * TICK_US };
  } catch {
    return { user: 0, system: 0 };
  }
}

class CpuEnvironment extends NodeEnvironment {
  constructor(config, context) {
    super(config, context);
    this.cpuFile = path.relative(config.projectConfig.rootDir, context.testPath).split(path.sep).join('/');
    this.cpuStart = { own: process.cpuUsage(), children: childrenCpu(), wall: process.hrtime.bigint(), spawned: spawned.count };
    spawned.commands = {};
  }

  async teardown() {
    await super.teardown();
    const own = process.cpuUsage(this.cpuStart.own);
    const children = childrenCpu();
    const row = {
      file: this.cpuFile,
      database: /^postgres/.test(process.env.DATABASE_URL ?? '') ? 'postgres' : 'sqlite',
      worker: process.pid,
      wallMs: Math.round(Number(process.hrtime.bigint() - this.cpuStart.wall) / 1e6),
      userMs: Math.round(own.user / 1000),
      systemMs: Math.round(own.system / 1000),
      childrenMs: Math.round((children.user - this.cpuStart.children.user + children.system - this.cpuStart.children.system) / 1000),
      spawned: spawned.count - this.cpuStart.spawned,
      commands: spawned.commands,
    };
    fs.appendFileSync(process.env.JEST_CPU_LOG, `${JSON.stringify(row)}\n`);
  }
}

module.exports = CpuEnvironment;
module.exports.TestEnvironment = CpuEnvironment;
