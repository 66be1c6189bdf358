/**
 * Workflow client throughput (issue 10): the same 2,000 DescribeExecution calls through our WorkflowClient and
 * through the official @aws-sdk/client-sfn against the running gateway, in one run. Both sign every request (SigV4
 * with the same access key), both keep connections alive, both have CONCURRENCY calls in flight. The order of the two
 * targets alternates between rounds; the figure is the median of the per-round ratios (ours ÷ SDK). Before measuring,
 * one call through each must give the same answer (the verification), so a client that answers faster by answering
 * wrong cannot win.
 */
import { DescribeExecutionCommand, SFNClient } from '@aws-sdk/client-sfn';
import { WorkflowClient } from '@graphql-domain-gateway/workflow-client';
import type { App } from '../src/server';
import { BenchFailure } from './lib/types';

export const CLIENT_WORKLOAD = 'workflow-client';
const ROLE = 'arn:aws:iam::000000000000:role/bench';
const CONCURRENCY = 8;

export interface ClientRun {
  target: 'ours' | 'sdk';
  calls: number;
  seconds: number;
  callsPerSec: number;
}

export interface ClientBenchResult {
  name: string;
  calls: number;
  concurrency: number;
  rounds: Array<{ ours: ClientRun; sdk: ClientRun; ratio: number }>;
  oursCallsPerSec: number;
  sdkCallsPerSec: number;
  /** Median of per-round ours ÷ sdk. */
  ratio: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function timed(target: ClientRun['target'], calls: number, one: () => Promise<unknown>): Promise<ClientRun> {
  let next = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < calls) {
        next++;
        await one();
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { target, calls, seconds, callsPerSec: calls / seconds };
}

export async function runClientBench(opts: { app: App; gatewayUrl: string; adminLogin: string; rounds: number; calls: number; log: (m: string) => void }): Promise<ClientBenchResult> {
  const { app, log } = opts;
  const k = await app.deps.services.identity.createAccessKey(app.dataSource.manager, { user: opts.adminLogin }, app.config.secretKey);
  const endpoint = `${opts.gatewayUrl}/workflow`;
  const sdk = new SFNClient({ region: 'us-east-1', endpoint, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey }, disableHostPrefix: true });
  const ours = new WorkflowClient({ region: 'us-east-1', version: '2016-11-23', endpoint, credentials: { key: k.accessKeyId, secret: k.secretAccessKey, accountId: app.config.workflowAccountId } });
  try {
    const definition = JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Pass', Result: { done: true }, End: true } } });
    const { stateMachineArn } = await ours.createStateMachine({ name: `bench-client-${Date.now()}`, roleArn: ROLE, definition });
    const { executionArn } = await ours.startExecution({ stateMachineArn, input: JSON.stringify({ order: 42 }) });
    const arn = executionArn as string;
    // Verification: the two clients see the same execution.
    const a = await ours.describeExecution({ executionArn: arn });
    const b = await sdk.send(new DescribeExecutionCommand({ executionArn: arn }));
    const facts = (x: Record<string, unknown>) =>
      JSON.stringify([x.executionArn, x.stateMachineArn, x.name, x.startDate instanceof Date ? x.startDate.getTime() : x.startDate, x.input]);
    if (facts(a) !== facts(b as unknown as Record<string, unknown>)) throw new BenchFailure(`${CLIENT_WORKLOAD}: the two clients disagree: ${facts(a)} vs ${facts(b as unknown as Record<string, unknown>)}`);
    const oneOurs = () => ours.describeExecution({ executionArn: arn });
    const oneSdk = () => sdk.send(new DescribeExecutionCommand({ executionArn: arn }));
    // Warm-up: connections, signer caches, JIT.
    await timed('ours', 200, oneOurs);
    await timed('sdk', 200, oneSdk);
    const rounds: ClientBenchResult['rounds'] = [];
    for (let round = 1; round <= opts.rounds; round++) {
      let o: ClientRun;
      let s: ClientRun;
      if (round % 2) {
        o = await timed('ours', opts.calls, oneOurs);
        s = await timed('sdk', opts.calls, oneSdk);
      } else {
        s = await timed('sdk', opts.calls, oneSdk);
        o = await timed('ours', opts.calls, oneOurs);
      }
      rounds.push({ ours: o, sdk: s, ratio: o.callsPerSec / s.callsPerSec });
      log(`${CLIENT_WORKLOAD} round ${round}: ours ${o.callsPerSec.toFixed(0)} calls/s, @aws-sdk/client-sfn ${s.callsPerSec.toFixed(0)} calls/s (${(o.callsPerSec / s.callsPerSec).toFixed(2)}x)`);
    }
    return {
      name: CLIENT_WORKLOAD,
      calls: opts.calls,
      concurrency: CONCURRENCY,
      rounds,
      oursCallsPerSec: median(rounds.map((r) => r.ours.callsPerSec)),
      sdkCallsPerSec: median(rounds.map((r) => r.sdk.callsPerSec)),
      ratio: median(rounds.map((r) => r.ratio)),
    };
  } finally {
    sdk.destroy();
    ours.destroy?.();
  }
}
