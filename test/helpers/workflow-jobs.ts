/**
 * Waiting for workflow jobs over the Step Functions wire, as a client does: DescribeExecution until the job reaches
 * the status the test waits for.
 */
import { DescribeExecutionCommand, DescribeExecutionCommandOutput, SFNClient } from '@aws-sdk/client-sfn';

export interface WaitForExecutionOptions {
  /** Done when this holds of the status (default: no longer RUNNING). */
  until?: (status: string) => boolean;
  timeoutMs?: number;
  pollMs?: number;
}

/** The job's description once `until` holds of its status; throws after `timeoutMs`. */
export async function waitForExecution(sfn: SFNClient, executionArn: string, opts: WaitForExecutionOptions = {}): Promise<DescribeExecutionCommandOutput> {
  const { until = (s) => s !== 'RUNNING', timeoutMs = 30_000, pollMs = 50 } = opts;
  const stop = Date.now() + timeoutMs;
  for (;;) {
    const d = await sfn.send(new DescribeExecutionCommand({ executionArn }));
    if (until(d.status!)) return d;
    if (Date.now() > stop) throw new Error(`${executionArn}: still ${d.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
