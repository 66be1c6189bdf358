/**
 * Client-side validation over the real Step Functions model (and a small test-only model for maps, blobs and a
 * sensitive pattern, which Step Functions' inputs lack): PHP Validator's checks and exact wording, all problems
 * in one InvalidArgumentError.
 */
import { InvalidArgumentError } from '../../../packages/workflow-client/src/errors';
import { Service, defaultApiProvider, type ApiModel } from '../../../packages/workflow-client/src/api';
import {
  DEFAULT_CONSTRAINTS,
  constraintsFromOption,
  describeType,
  validateInput,
  validationMiddleware,
  type ValidationConstraints,
} from '../../../packages/workflow-client/src/validator';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CommandLike, Handler, Result } from '../../../packages/workflow-client/src/types';

const sfn = Service.fromProvider(defaultApiProvider, 'states', 'latest');
const ALL: ValidationConstraints = { required: true, min: true, max: true, pattern: true };
const ARN = 'arn:aws:states:us-east-1:123456789012:stateMachine:jobs';

function errorOf(fn: () => void): InvalidArgumentError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidArgumentError);
    return e as InvalidArgumentError;
  }
  throw new Error('expected a validation error');
}

describe('validateInput over the Step Functions model', () => {
  it('accepts valid input, and ignores @-keys, unknown keys and null optional members', () => {
    expect(() =>
      validateInput(
        sfn,
        'StartExecution',
        { stateMachineArn: ARN, name: 'run-1', input: '{}', '@http': { delay: 5 }, '@waiter': {}, extra: 1, traceHeader: null },
        ALL,
      ),
    ).not.toThrow();
    expect(() => validateInput(sfn, 'ListExecutions', {}, ALL)).not.toThrow();
  });

  it('reports a missing required member in PHP wording', () => {
    const e = errorOf(() => validateInput(sfn, 'StartExecution', { name: 'x' }, DEFAULT_CONSTRAINTS));
    expect(e.message).toBe(
      'Found 1 error while validating the input provided for the StartExecution operation:\n' +
        '[stateMachineArn] is missing and is a required parameter',
    );
    // null counts as missing (PHP isset)
    expect(() => validateInput(sfn, 'StartExecution', { stateMachineArn: null }, DEFAULT_CONSTRAINTS)).toThrow(
      '[stateMachineArn] is missing and is a required parameter',
    );
  });

  it('lists every problem, with nested paths, in one error', () => {
    const e = errorOf(() =>
      validateInput(
        sfn,
        'CreateStateMachine',
        {
          name: '',
          definition: { StartAt: 'A' },
          publish: 'yes',
          tags: [{ key: '', value: 'v' }, 'not-a-tag'],
          loggingConfiguration: { level: 'ALL', destinations: 'abc' },
          tracingConfiguration: 'on',
        },
        DEFAULT_CONSTRAINTS,
      ),
    );
    expect(e.message).toBe(
      [
        'Found 8 errors while validating the input provided for the CreateStateMachine operation:',
        '[roleArn] is missing and is a required parameter',
        '[name] expected string length to be >= 1, but found string length of 0',
        '[definition] must be a string or an object that implements toString(). Found object(Object)',
        '[publish] must be a boolean. Found string(3) "yes"',
        '[tags][0][key] expected string length to be >= 1, but found string length of 0',
        '[tags][1] must be an associative array. Found string(9) "not-a-tag"',
        '[loggingConfiguration][destinations] must be an array. Found string(3) "abc"',
        '[tracingConfiguration] must be an associative array. Found string(2) "on"',
      ].join('\n'),
    );
  });

  it('checks numbers (numeric strings allowed) and their range; max only when enabled', () => {
    expect(() => validateInput(sfn, 'ListExecutions', { maxResults: '5' }, ALL)).not.toThrow();
    expect(() => validateInput(sfn, 'ListExecutions', { maxResults: 'ten' }, ALL)).toThrow(
      '[maxResults] must be numeric. Found string(3) "ten"',
    );
    expect(() => validateInput(sfn, 'ListExecutions', { maxResults: true }, ALL)).toThrow(
      '[maxResults] must be numeric. Found bool(true)',
    );
    expect(() => validateInput(sfn, 'ListExecutions', { maxResults: 2000 }, ALL)).toThrow(
      '[maxResults] expected numeric value to be <= 1000, but found numeric value of 2000',
    );
    // validate: true is {required, min}: max is not enforced
    expect(() => validateInput(sfn, 'ListExecutions', { maxResults: 2000 }, DEFAULT_CONSTRAINTS)).not.toThrow();
    // min 0 is not checked (PHP's falsy min)
    expect(() => validateInput(sfn, 'ListExecutions', { maxResults: -1 }, ALL)).not.toThrow();
    expect(() =>
      validateInput(sfn, 'CreateActivity', { name: 'a', encryptionConfiguration: { type: 'AWS_OWNED_KEY', kmsDataKeyReusePeriodSeconds: 30 } }, ALL),
    ).toThrow('[encryptionConfiguration][kmsDataKeyReusePeriodSeconds] expected numeric value to be >= 60, but found numeric value of 30');
  });

  it('measures string length in UTF-8 bytes', () => {
    const name = 'é'.repeat(41); // 41 characters, 82 bytes; Name max is 80
    expect(() => validateInput(sfn, 'StartExecution', { stateMachineArn: ARN, name }, ALL)).toThrow(
      '[name] expected string length to be <= 80, but found string length of 82',
    );
    expect(() => validateInput(sfn, 'StartExecution', { stateMachineArn: ARN, name: 'é'.repeat(40) }, ALL)).not.toThrow();
  });

  it('checks patterns only when enabled', () => {
    const bad = { executionArn: ARN, clientToken: ' ' };
    expect(() => validateInput(sfn, 'RedriveExecution', bad, DEFAULT_CONSTRAINTS)).not.toThrow();
    expect(() => validateInput(sfn, 'RedriveExecution', bad, ALL)).toThrow(
      "Found 1 error while validating the input provided for the RedriveExecution operation:\n[clientToken] Pattern /[!-~]+/ failed to match ' '",
    );
    expect(() => validateInput(sfn, 'RedriveExecution', { executionArn: ARN, clientToken: 'tok-1' }, ALL)).not.toThrow();
    // \p{...} classes are honoured (the u flag)
    expect(() => validateInput(sfn, 'StartExecution', { stateMachineArn: ARN, traceHeader: 'Root=1-abc' }, ALL)).not.toThrow();
  });

  it('honours the enabled constraints: none enabled means only type checks', () => {
    const none = { required: false, min: false, max: false, pattern: false };
    expect(() => validateInput(sfn, 'StartExecution', { name: '' }, none)).not.toThrow();
    expect(() => validateInput(sfn, 'StartExecution', { name: '', input: [] }, none)).toThrow(
      '[input] must be a string or an object that implements toString(). Found array(0)',
    );
  });

  it('throws for an operation the model does not have', () => {
    expect(() => validateInput(sfn, 'Nope', {}, ALL)).toThrow(new InvalidArgumentError('Unknown operation: Nope'));
  });
});

describe('validateInput on shapes Step Functions does not use (test-only model)', () => {
  const model: ApiModel = {
    metadata: {
      apiVersion: '2020-01-01',
      endpointPrefix: 'test',
      jsonVersion: '1.0',
      protocol: 'json',
      serviceFullName: 'Test',
      serviceId: 'Test',
      signatureVersion: 'v4',
      signingName: 'test',
      targetPrefix: 'Test',
    },
    operations: {
      Put: { name: 'Put', http: { method: 'POST', requestUri: '/' }, input: { shape: 'PutInput' }, errors: [] },
    },
    shapes: {
      PutInput: {
        type: 'structure',
        members: {
          labels: { shape: 'Labels' },
          payload: { shape: 'Payload' },
          secret: { shape: 'Secret' },
          ratio: { shape: 'Ratio' },
          items: { shape: 'Items' },
        },
      },
      Labels: { type: 'map', key: { shape: 'Str' }, value: { shape: 'Short' } },
      Str: { type: 'string' },
      Short: { type: 'string', max: 3 },
      Payload: { type: 'blob' },
      Secret: { type: 'string', pattern: '^[0-9]+$', sensitive: true },
      Ratio: { type: 'double', max: 1.5 },
      Items: { type: 'list', member: { shape: 'Str' }, min: 2, max: 3 },
    },
  };
  const svc = new Service(model);

  it('checks maps, blobs, doubles and list element counts', () => {
    expect(() =>
      validateInput(svc, 'Put', { labels: { a: 'x' }, payload: Buffer.from('hi'), ratio: 1.25, items: ['a', 'b'] }, ALL),
    ).not.toThrow();
    const e = errorOf(() =>
      validateInput(svc, 'Put', { labels: { a: 'toolong', b: 7 }, payload: { x: 1 }, ratio: 2.5, items: ['a'] }, ALL),
    );
    expect(e.message.split('\n')).toEqual([
      'Found 4 errors while validating the input provided for the Put operation:',
      '[labels][a] expected string length to be <= 3, but found string length of 7',
      '[payload] must be a Buffer, a Uint8Array, a readable stream, or something that can be cast to a string. Found object(Object)',
      '[ratio] expected numeric value to be <= 1.5, but found numeric value of 2.5',
      '[items] expected list element count to be >= 2, but found list element count of 1',
    ]);
    expect(() => validateInput(svc, 'Put', { labels: ['x'] }, ALL)).toThrow(
      '[labels] must be an associative array. Found array(1)',
    );
    // objects with their own toString are strings / blobs (PHP __toString)
    const stringable = { toString: () => 'ab' };
    expect(() => validateInput(svc, 'Put', { labels: { a: stringable }, payload: stringable }, ALL)).not.toThrow();
  });

  it('never echoes the value of a sensitive shape', () => {
    const e = errorOf(() => validateInput(svc, 'Put', { secret: 'hunter2' }, ALL));
    expect(e.message).toBe(
      "Found 1 error while validating the input provided for the Put operation:\n[secret] Pattern /^[0-9]+$/ failed to match '***SENSITIVE***'",
    );
    expect(e.message).not.toContain('hunter2');
  });
});

describe('constraintsFromOption (the validate option)', () => {
  it('maps true, false and constraint lists', () => {
    expect(constraintsFromOption(true)).toEqual({ required: true, min: true, max: false, pattern: false });
    expect(constraintsFromOption(false)).toBeNull();
    expect(constraintsFromOption(['required', 'pattern'])).toEqual({ required: true, min: false, max: false, pattern: true });
    expect(constraintsFromOption({ max: true })).toEqual({ required: false, min: false, max: true, pattern: false });
    expect(() => constraintsFromOption('yes')).toThrow(InvalidArgumentError);
  });

  it('describes values as PHP describe_type does', () => {
    expect(describeType('abc')).toBe('string(3) "abc"');
    expect(describeType(5)).toBe('int(5)');
    expect(describeType(1.5)).toBe('float(1.5)');
    expect(describeType(false)).toBe('bool(false)');
    expect(describeType(null)).toBe('NULL');
    expect(describeType([1, 2])).toBe('array(2)');
    expect(describeType(new Date(0))).toBe('object(Date)');
  });
});

describe('validationMiddleware', () => {
  let server: Server;
  let url: string;
  const received: unknown[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => {
        received.push(JSON.parse(data));
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
        res.end('{"executionArn":"arn:x","startDate":1}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  /** The next handler sends the command to the loopback server. */
  const send: Handler = async (command: CommandLike) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'x-amz-target': `AWSStepFunctions.${command.name}` },
      body: JSON.stringify(Object.fromEntries(Object.entries(command.args).filter(([k]) => !k.startsWith('@')))),
    });
    return { ...((await res.json()) as Record<string, unknown>), '@metadata': { statusCode: res.status, headers: {}, transferStats: {} } } as Result;
  };

  it('passes valid commands on and rejects invalid ones before anything is sent', async () => {
    const handler = validationMiddleware(sfn)(send);
    await expect(handler({ name: 'StartExecution', args: { stateMachineArn: ARN, '@http': {} } })).resolves.toMatchObject({ executionArn: 'arn:x' });
    expect(received).toEqual([{ stateMachineArn: ARN }]);
    await expect(handler({ name: 'StartExecution', args: { name: 'x' } })).rejects.toThrow(
      new InvalidArgumentError(
        'Found 1 error while validating the input provided for the StartExecution operation:\n[stateMachineArn] is missing and is a required parameter',
      ),
    );
    // pattern is only checked when the constraints enable it
    const strict = validationMiddleware(sfn, ALL)(send);
    await expect(strict({ name: 'RedriveExecution', args: { executionArn: ARN, clientToken: ' ' } })).rejects.toThrow('Pattern /[!-~]+/');
    expect(received).toHaveLength(1);
  });
});
