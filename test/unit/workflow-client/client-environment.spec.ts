/**
 * The WorkflowClient options about its environment and observability, through the real client against a loopback
 * Step Functions stand-in: credentials from the environment and the shared files (profile,
 * use_vendor_shared_config_files), app_id, stats, debug and csm (records received on a real UDP socket).
 */
import * as dgram from 'node:dgram';
import * as fs from 'node:fs';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { WorkflowClient, WorkflowServiceException } from '../../../packages/workflow-client/src';

interface Seen {
  headers: IncomingHttpHeaders;
  body: string;
}

describe('WorkflowClient environment and observability options', () => {
  let server: Server;
  let url: string;
  const seen: Seen[] = [];
  let answer: (target: string) => { status: number; body: unknown } = () => ({ status: 200, body: { executionArn: 'arn:x', startDate: 1700000000.5 } });
  let home: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        const a = answer(String(req.headers['x-amz-target']));
        res.writeHead(a.status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'req-1' });
        res.end(JSON.stringify(a.body));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'wfc-home-'));
    fs.mkdirSync(path.join(home, '.aws'));
    fs.writeFileSync(path.join(home, '.aws', 'credentials'), '[default]\naws_access_key_id = AKIDFILEDEFAULT\naws_secret_access_key = file-secret\naws_account_id = 123456789012\n\n[ops]\naws_access_key_id = AKIDFILEOPS\naws_secret_access_key = ops-secret\naws_account_id = 123456789012\n');
    fs.writeFileSync(path.join(home, '.aws', 'config'), '[default]\nsdk_ua_app_id = from-ini\n\n[profile ops]\nretry_mode = standard\nmax_attempts = 2\n');
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    fs.rmSync(home, { recursive: true, force: true });
  });
  beforeEach(() => {
    seen.length = 0;
    answer = () => ({ status: 200, body: { executionArn: 'arn:x', startDate: 1700000000.5 } });
  });

  // Every signed client's credentials carry an accountId (the files and environment below too), as a user who does
  // not want the AccountIdWarning sets them up.
  const keyIdOf = (s: Seen) => /Credential=([^/]+)\//.exec(String(s.headers.authorization))?.[1];
  const client = (options: Record<string, unknown>, env: Record<string, string> = { HOME: home }) =>
    new WorkflowClient({ region: 'us-east-1', version: 'latest', endpoint: url, ...options } as never, env);

  it('credentials unset: the environment first, then the shared credentials file (default profile)', async () => {
    await client({}, { HOME: home, AWS_ACCESS_KEY_ID: 'AKIDFROMENV', AWS_SECRET_ACCESS_KEY: 'env-secret', AWS_ACCOUNT_ID: '123456789012' }).describeExecution({ executionArn: 'arn:x' });
    await client({}).describeExecution({ executionArn: 'arn:x' });
    expect(seen.map(keyIdOf)).toEqual(['AKIDFROMENV', 'AKIDFILEDEFAULT']);
  });

  it('profile: that profile\'s credentials, over given credentials (and its retry settings apply)', async () => {
    const c = client({ profile: 'ops', credentials: { key: 'AKIDGIVEN', secret: 's', accountId: '123456789012' } });
    await c.describeExecution({ executionArn: 'arn:x' });
    expect(seen.map(keyIdOf)).toEqual(['AKIDFILEOPS']);
    expect(c.getConfig('profile')).toBe('ops');
    // [profile ops] retry_mode = standard, max_attempts = 2: a 500 is tried twice.
    answer = () => ({ status: 500, body: { __type: 'InternalFailure', message: 'boom' } });
    seen.length = 0;
    const err = await c.describeExecution({ executionArn: 'arn:x', '@http': { delay: 0 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowServiceException);
    expect(seen.map((s) => s.headers['amz-sdk-request'])).toEqual(['attempt=1; max=2', 'attempt=2; max=2']);
  });

  it('use_vendor_shared_config_files: false skips the files (no credentials found → a clear error without secrets)', async () => {
    const err = (await client({ use_vendor_shared_config_files: false }).describeExecution({ executionArn: 'arn:x' }).catch((e: Error) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/credentials/i);
    expect(err.message).not.toContain('file-secret');
    expect(seen).toHaveLength(0);
  });

  it('app_id: in the User-Agent as app/<id>, from the option, else the environment, else the profile', async () => {
    await client({ app_id: 'my-app', credentials: false }).describeExecution({ executionArn: 'arn:x' });
    await client({ credentials: false }, { HOME: home, AWS_SDK_UA_APP_ID: 'env-app' }).describeExecution({ executionArn: 'arn:x' });
    await client({ credentials: false }).describeExecution({ executionArn: 'arn:x' });
    expect(seen.map((s) => /app\/(\S+)/.exec(String(s.headers['user-agent']))?.[1])).toEqual(['my-app', 'env-app', 'from-ini']);
    expect(() => client({ app_id: 42 })).toThrow('Invalid configuration value provided for "app_id". Expected string, but got int(42)');
  });

  it('stats: total_time, retries and http statistics in @metadata.transferStats (none by default)', async () => {
    const r = await client({ credentials: false, stats: true }).describeExecution({ executionArn: 'arn:x' });
    const t = r['@metadata'].transferStats as Record<string, unknown>;
    expect(typeof t.total_time).toBe('number');
    expect([t.retries_attempted, t.total_retry_delay]).toEqual([0, 0]);
    expect((t.http as Array<Record<string, unknown>>)[0]).toMatchObject({ http_code: 200 });
    const plain = await client({ credentials: false }).describeExecution({ executionArn: 'arn:x' });
    expect(plain['@metadata'].transferStats).toEqual({});
    const onlyTimer = await client({ credentials: false, stats: { timer: true } }).describeExecution({ executionArn: 'arn:x' });
    expect(Object.keys(onlyTimer['@metadata'].transferStats)).toEqual(['total_time']);
    expect(() => client({ stats: 'yes' })).toThrow('Invalid configuration value provided for "stats"');
  });

  it('debug: every step entered and left through logfn, with the signature and key id scrubbed (unless scrub_auth is false)', async () => {
    const lines: string[] = [];
    await client({ credentials: { key: 'AKIAEXAMPLEKEY123456', secret: 'very-secret-value', accountId: '123456789012' }, debug: { logfn: (l: string) => lines.push(l) } }).describeExecution({ executionArn: 'arn:x' });
    const text = lines.join('\n');
    for (const step of ['init', 'validate', 'build', 'sign']) expect(text).toContain(`-> Entering step ${step}`);
    expect(text).toContain("<- Leaving step sign, name 'signer'");
    expect(text).toContain('* HTTP request:');
    expect(text).toContain('* HTTP response: {"statusCode":200');
    expect(text).toContain('Signature=[SIGNATURE]');
    expect(text).not.toContain('AKIAEXAMPLEKEY123456');
    expect(text).not.toContain('very-secret-value');
    const raw: string[] = [];
    await client({ credentials: { key: 'AKIAEXAMPLEKEY123456', secret: 'very-secret-value', accountId: '123456789012' }, debug: { logfn: (l: string) => raw.push(l), scrub_auth: false } }).describeExecution({ executionArn: 'arn:x' });
    expect(raw.join('\n')).toMatch(/Signature=[0-9a-f]{64}/);
    expect(raw.join('\n')).not.toContain('very-secret-value');
  });

  it('csm: an ApiCallAttempt per attempt and an ApiCall per command arrive over UDP; never the secret', async () => {
    const sock = dgram.createSocket('udp4');
    await new Promise<void>((r) => sock.bind(0, '127.0.0.1', r));
    const port = (sock.address() as AddressInfo).port;
    const records: Array<Record<string, unknown>> = [];
    sock.on('message', (m) => records.push(JSON.parse(m.toString()) as Record<string, unknown>));
    try {
      let calls = 0;
      answer = () => (++calls === 1 ? { status: 503, body: { __type: 'ServiceUnavailable', message: 'busy' } } : { status: 200, body: { executionArn: 'arn:x' } });
      await client({ credentials: { key: 'AKIDCSM', secret: 'csm-secret', accountId: '123456789012' }, retries: { mode: 'standard', max_attempts: 3 }, csm: { enabled: true, port, client_id: 'c1' } }).describeExecution({ executionArn: 'arn:x' });
      const until = Date.now() + 2000;
      while (records.length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      const byType = (t: string) => records.filter((r) => r.Type === t);
      expect(byType('ApiCallAttempt').map((r) => [r.HttpStatusCode, r.AwsException ?? null, r.AccessKey])).toEqual([
        [503, 'ServiceUnavailable', 'AKIDCSM'],
        [200, null, 'AKIDCSM'],
      ]);
      expect(byType('ApiCall')).toEqual([expect.objectContaining({ Version: 1, ClientId: 'c1', Api: 'DescribeExecution', AttemptCount: 2, FinalHttpStatusCode: 200, Region: 'us-east-1' })]);
      expect(JSON.stringify(records)).not.toContain('csm-secret');
      // Disabled (the default): nothing is sent.
      records.length = 0;
      await client({ credentials: false }).describeExecution({ executionArn: 'arn:x' });
      await new Promise((r) => setTimeout(r, 100));
      expect(records).toEqual([]);
    } finally {
      sock.close();
    }
  });
});
