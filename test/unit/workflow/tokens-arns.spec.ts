/**
 * Workflow paging tokens (signed, bound to operation and filter, expiring after 24 h), ARNs and names.
 */
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../../src/config';
import { AppError } from '../../../src/errors/app-error';
import { definitionArn, jobArn, nameProblem, parseDefinitionArn, parseJobArn, requireRoleArn, requireValidName } from '../../../src/services/workflow/arn';
import { decodePageToken, encodePageToken, TOKEN_TTL_MS } from '../../../src/services/workflow/page-token';

const key = randomBytes(32);
const pair = (p: unknown[]): p is [number, number] => p.length === 2 && p.every((x) => Number.isSafeInteger(x));

function code(f: () => unknown): string {
  try {
    f();
    return 'ok';
  } catch (e) {
    return (e as AppError).domainCode || (e as AppError).code;
  }
}

describe('paging tokens', () => {
  it('round-trip for the same operation and filter', () => {
    const t = encodePageToken(key, 'ListExecutions', ['orders', 'RUNNING'], [1_700_000_000_000, 42]);
    expect(decodePageToken(key, t, 'ListExecutions', ['orders', 'RUNNING'], pair)).toEqual([1_700_000_000_000, 42]);
    // Opaque: the filter does not show in it.
    expect(Buffer.from(t.split('.')[0], 'base64url').toString()).not.toContain('orders');
  });

  it('refuse another operation, another filter, another key, tampering, age over 24 h and junk', () => {
    const now = Date.now();
    const t = encodePageToken(key, 'ListExecutions', ['orders', null], [now, 7], now);
    expect(code(() => decodePageToken(key, t, 'GetExecutionHistory', ['orders', null], pair))).toBe('INVALID_TOKEN');
    expect(code(() => decodePageToken(key, t, 'ListExecutions', ['orders', 'FAILED'], pair))).toBe('INVALID_TOKEN');
    expect(code(() => decodePageToken(randomBytes(32), t, 'ListExecutions', ['orders', null], pair))).toBe('INVALID_TOKEN');
    const [payload, mac] = t.split('.');
    const forged = Buffer.from(JSON.stringify(['ListExecutions', JSON.parse(Buffer.from(payload, 'base64url').toString())[1], now, [now, 1]])).toString('base64url');
    expect(code(() => decodePageToken(key, `${forged}.${mac}`, 'ListExecutions', ['orders', null], pair))).toBe('INVALID_TOKEN');
    expect(code(() => decodePageToken(key, t, 'ListExecutions', ['orders', null], pair, now + TOKEN_TTL_MS - 1))).toBe('ok');
    expect(code(() => decodePageToken(key, t, 'ListExecutions', ['orders', null], pair, now + TOKEN_TTL_MS + 1))).toBe('INVALID_TOKEN');
    for (const junk of ['', 'x', 'a.b', `${'A'.repeat(2000)}.${'B'.repeat(43)}`, '💥.💥']) {
      expect(code(() => decodePageToken(key, junk, 'ListExecutions', ['orders', null], pair))).toBe('INVALID_TOKEN');
    }
    // A correctly signed token whose position has the wrong types (a bug elsewhere, or an old format) is refused too.
    const wrongShape = encodePageToken(key, 'ListExecutions', ['orders', null], ['x', 1]);
    expect(code(() => decodePageToken(key, wrongShape, 'ListExecutions', ['orders', null], pair))).toBe('INVALID_TOKEN');
  });
});

describe('ARNs and names', () => {
  const config = loadConfig({ WORKFLOW_REGION: 'eu-central-1', WORKFLOW_ACCOUNT_ID: '123456789012' });

  it('are built from WORKFLOW_REGION and WORKFLOW_ACCOUNT_ID (defaults us-east-1, 000000000000)', () => {
    expect(definitionArn(config, 'orders')).toBe('arn:aws:states:eu-central-1:123456789012:stateMachine:orders');
    expect(jobArn(config, 'orders', 'run-1')).toBe('arn:aws:states:eu-central-1:123456789012:execution:orders:run-1');
    const d = loadConfig({});
    expect([d.workflowRegion, d.workflowAccountId]).toEqual(['us-east-1', '000000000000']);
    expect(() => loadConfig({ WORKFLOW_REGION: 'mars' })).toThrow(/WORKFLOW_REGION/);
    expect(() => loadConfig({ WORKFLOW_ACCOUNT_ID: '12' })).toThrow(/WORKFLOW_ACCOUNT_ID/);
  });

  it('parse back; another region or account names nothing here; malformed is InvalidArn', () => {
    expect(parseDefinitionArn(config, 'arn:aws:states:eu-central-1:123456789012:stateMachine:orders')).toBe('orders');
    expect(parseJobArn(config, 'arn:aws:states:eu-central-1:123456789012:execution:orders:run-1')).toEqual({ definitionName: 'orders', jobName: 'run-1' });
    expect(parseDefinitionArn(config, 'arn:aws:states:us-east-1:123456789012:stateMachine:orders')).toBeNull();
    expect(parseJobArn(config, 'arn:aws:states:eu-central-1:999999999999:execution:orders:run-1')).toBeNull();
    for (const bad of [
      '',
      'orders',
      'arn:aws:states:eu-central-1:123456789012:execution:orders:run-1',
      'arn:aws:states:eu-central-1:123456789012:stateMachine:',
      'arn:aws:states:eu-central-1:123456789012:stateMachine:a:b',
      'arn:aws:lambda:eu-central-1:123456789012:stateMachine:orders',
      'arn:aws:states:eu-central-1:1234:stateMachine:orders',
      `arn:aws:states:eu-central-1:123456789012:stateMachine:${'x'.repeat(300)}`,
    ]) {
      expect(code(() => parseDefinitionArn(config, bad))).toBe('INVALID_ARN');
    }
    expect(code(() => parseJobArn(config, 'arn:aws:states:eu-central-1:123456789012:stateMachine:orders'))).toBe('INVALID_ARN');
  });

  it('names: 1-80 characters without whitespace, brackets, wildcards, special or control characters', () => {
    for (const ok of ['a', 'orders-2026_v1.2', 'x'.repeat(80), 'ünïcödé', 'emoji-🙂']) expect(nameProblem(ok)).toBeNull();
    for (const bad of ['', 'x'.repeat(81), 'a b', 'a\tb', 'a<b', 'a{b}', 'a[b]', 'a?', 'a*', 'a"b', 'a#b', 'a%b', 'a\\b', 'a^b', 'a|b', 'a~b', 'a`b', 'a$b', 'a&b', 'a,b', 'a;b', 'a:b', 'a/b', 'a\u0000b', 'a\u0085b', 'a\ud800b']) {
      expect([bad, code(() => requireValidName(bad))]).toEqual([bad, 'INVALID_NAME']);
    }
  });

  it('role ARNs must be IAM role ARNs', () => {
    for (const ok of ['arn:aws:iam::000000000000:role/runner', 'arn:aws:iam::123456789012:role/service-role/StepFunctions-x']) expect(requireRoleArn(ok)).toBe(ok);
    for (const bad of ['', 'runner', 'arn:aws:iam::000000000000:user/alice', 'arn:aws:iam::0:role/x', 'arn:aws:s3:::bucket', 'arn:aws:iam::000000000000:role/']) {
      expect(code(() => requireRoleArn(bad))).toBe('INVALID_ARN');
    }
  });
});
