/**
 * Workflow jobs over the Step Functions wire, as a client sees them: a client of the test server for a user of its
 * own, how an operation ended, and DescribeExecution until the job reaches the status the test waits for.
 */
import { execFile } from 'node:child_process';
import { DescribeExecutionCommand, DescribeExecutionCommandOutput, SFNClient } from '@aws-sdk/client-sfn';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import type { TestApp } from './app';

/** An @aws-sdk/client-sfn client of the test server, signing as a new user (`login` made unique) with a key of its own. */
export async function sfnClientFor(t: TestApp, fx: IdentityFixtures, login: string): Promise<SFNClient> {
  const user = await fx.user(uniq(login));
  const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
  return new SFNClient({
    region: 'us-east-1',
    endpoint: `${t.url}/workflow`,
    credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey },
    disableHostPrefix: true,
    maxAttempts: 1,
  });
}

/** How a call ended: 'ok', or the error the SDK raised and the HTTP status it came with ('InvalidArn 400'). */
export async function errorOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    const err = e as { name: string; $metadata?: { httpStatusCode?: number } };
    return `${err.name} ${err.$metadata?.httpStatusCode}`;
  }
  return 'ok';
}

/** As errorOf, with the error's message: 'InvalidArn 400: Invalid Arn: ...'. */
export async function errorWithMessageOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    const err = e as { name: string; message: string; $metadata?: { httpStatusCode?: number } };
    return `${err.name} ${err.$metadata?.httpStatusCode}: ${err.message}`;
  }
  return 'ok';
}

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

/**
 * The AWS CLI's `aws stepfunctions <args>` against the gateway at `url`, signed with `key`, reading no configuration
 * or credentials file of the machine, one attempt; never rejects (the exit code is part of the result).
 */
export function awsStepFunctionsCli(
  url: string,
  key: { accessKeyId: string; secretAccessKey: string },
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'aws',
      ['stepfunctions', ...args, '--endpoint-url', `${url}/workflow`, '--output', 'json'],
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          AWS_ACCESS_KEY_ID: key.accessKeyId,
          AWS_SECRET_ACCESS_KEY: key.secretAccessKey,
          AWS_DEFAULT_REGION: 'us-east-1',
          AWS_CONFIG_FILE: '/dev/null',
          AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
          AWS_MAX_ATTEMPTS: '1',
          ...env,
        },
      },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
