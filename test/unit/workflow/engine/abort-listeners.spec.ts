/**
 * A Map or Parallel whose many tasks run at once listens once per task on its group's abort signal: as many
 * listeners as tasks in flight, bounded by MaxConcurrency, not a leak. Node warns (MaxListenersExceededWarning)
 * past 10 listeners on one signal unless its owner says otherwise, and that warning went to the server's log for
 * every wide Map. Node writes it from the real process, which jest's sandbox does not see: the engine (built, as
 * the server runs it) runs in a child process here.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

it('a Map of 30 tasks at once runs to its end without a MaxListenersExceededWarning', () => {
  const engine = path.join(__dirname, '..', '..', '..', '..', 'dist', 'src', 'services', 'workflow', 'engine', 'index.js');
  const script = `
    const { advance, initialCheckpoint } = require(${JSON.stringify(engine)});
    const warnings = [];
    process.on('warning', (w) => warnings.push(w.name));
    const def = { StartAt: 'M', States: { M: { Type: 'Map', ItemsPath: '$.items', MaxConcurrency: 30,
      ItemProcessor: { StartAt: 'Work', States: { Work: { Type: 'Task', Resource: 'work', End: true } } }, End: true } } };
    const ctx = { executionArn: 'arn:aws:states:eu-west-1:000000000000:execution:sm:job-1', executionName: 'job-1',
      startTime: new Date().toISOString(), roleArn: 'arn:aws:iam::000000000000:role/r',
      stateMachineArn: 'arn:aws:states:eu-west-1:000000000000:stateMachine:sm', stateMachineName: 'sm' };
    let inFlight = 0, most = 0;
    const runTask = async (t) => { inFlight++; most = Math.max(most, inFlight); await new Promise((r) => setTimeout(r, 20)); inFlight--; return t.input; };
    (async () => {
      let cp = initialCheckpoint(def, { items: Array.from({ length: 30 }, (_, i) => i) }, ctx, new Date());
      let status = 'RUNNING';
      for (let i = 0; i < 100 && status === 'RUNNING'; i++) {
        const adv = await advance(def, cp, { now: () => new Date(), runTask });
        cp = adv.checkpoint; status = adv.status;
      }
      setImmediate(() => console.log(JSON.stringify({ status, most, warnings })));
    })();
  `;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim()) as { status: string; most: number; warnings: string[] };
  expect(out).toEqual({ status: 'SUCCEEDED', most: 30, warnings: [] });
});
