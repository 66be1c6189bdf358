/**
 * The service description: the bundled Step Functions model (operations, shapes, constraints, error shapes,
 * paginators, waiters), the Service accessors A1's client calls, and the default api provider ('latest', unknown
 * versions, copies). Operation and paginator names are checked against the real @aws-sdk/client-sfn.
 */
import * as sfn from '@aws-sdk/client-sfn';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { InvalidArgumentError } from '../../../packages/workflow-client/src/errors';
import {
  Service,
  UnexpectedValueError,
  availableVersions,
  defaultApiProvider,
  type ApiModel,
  type ApiProvider,
  type ShapeRef,
} from '../../../packages/workflow-client/src/api';

const service = () => Service.fromProvider(defaultApiProvider, 'states', 'latest');

/** The SDK's structure schema `${Name}$` = [3 | -3, ns, name, traits, memberNames, memberSchemas, requiredCount?]. */
type SdkStruct = [number, string, string, unknown, string[], unknown[], number?];

// The SDK's schema numbers for simple types (@smithy/core schema): 0 string, 1 number, 2 boolean, 4-7 timestamps,
// 15 document, 21 blob; 64|x a list of x and 128|x a map to x. Traits 8 = sensitive.
const SIMPLE: Record<number, string> = { 0: 'string', 1: 'number', 2: 'boolean', 4: 'timestamp', 5: 'timestamp', 6: 'timestamp', 7: 'timestamp', 15: 'document', 21: 'blob' };
const hasSensitive = (traits: unknown): boolean =>
  (typeof traits === 'number' && (traits & 8) !== 0) || (typeof traits === 'object' && traits !== null && 'sensitive' in traits);

/** The SDK's member schema as a type description, e.g. `list<Tag>`, `string!` (! = sensitive). */
function describeSdk(schema: unknown, sensitive = false): string {
  const mark = sensitive ? '!' : '';
  if (typeof schema === 'function') return describeSdk((schema as () => unknown)(), sensitive);
  if (typeof schema === 'number') {
    if (schema & 64) return `list<${describeSdk(schema & 63)}>${mark}`;
    if (schema & 128) return `map<${describeSdk(schema & 127)}>${mark}`;
    return `${SIMPLE[schema] ?? `?${schema}`}${mark}`;
  }
  const s = schema as unknown[];
  if (s.length === 2) return describeSdk(s[0], sensitive || hasSensitive(s[1])); // [schema, member traits]
  const [kind, , name, traits] = s as [number, string, string, unknown];
  const sens = sensitive || hasSensitive(traits);
  switch (kind) {
    case 0:
      return describeSdk(s[4], sens);
    case 1:
      return `list<${describeSdk(s[4])}>${sens ? '!' : ''}`;
    case 2:
      return `map<${describeSdk(s[5])}>${sens ? '!' : ''}`;
    default:
      return `${name}${sens ? '!' : ''}`;
  }
}

const NUMBER_TYPES = new Set(['integer', 'long', 'float', 'double', 'byte']);
/** The same description for a member of our model. */
function describeMine(s: Service, ref: ShapeRef): string {
  const shape = s.getShape(ref.shape);
  const mark = shape.sensitive || ref.sensitive ? '!' : '';
  switch (shape.type) {
    case 'structure':
      return `${ref.shape}${mark}`;
    case 'list':
      return `list<${describeMine(s, shape.member!)}>${mark}`;
    case 'map':
      return `map<${describeMine(s, shape.value!)}>${mark}`;
    default:
      return `${NUMBER_TYPES.has(shape.type) ? 'number' : shape.type}${mark}`;
  }
}

describe('workflow client service model', () => {
  it('has the Step Functions metadata the serializer and signer need', () => {
    const m = service().metadata;
    expect(m).toMatchObject({
      apiVersion: '2016-11-23',
      jsonVersion: '1.0',
      protocol: 'json',
      targetPrefix: 'AWSStepFunctions',
      signingName: 'states',
      endpointPrefix: 'states',
      serviceId: 'SFN',
      serviceFullName: 'AWS Step Functions',
    });
    expect(service().getApiVersion()).toBe('2016-11-23');
    expect(service().getServiceName()).toBe('states');
  });

  it('models every operation of the official SDK, and nothing else', () => {
    const s = service();
    const sdk = sfn as unknown as Record<string, unknown>;
    const sdkOps = Object.keys(sdk)
      .filter((k) => /^[A-Z]\w*Command$/.test(k) && typeof sdk[k] === 'function')
      .map((k) => k.slice(0, -'Command'.length))
      .sort();
    expect(sdkOps).toHaveLength(37);
    expect([...s.getOperationNames()].sort()).toEqual(sdkOps);
    expect(s.hasOperation('startExecution')).toBe(false);
  });

  it('gives each operation the errors, idempotency and host prefix the SDK has', () => {
    // The SDK's operation schema `${Op}$` = [9, ns, name, traits, input, output]: traits 2 = idempotent,
    // {endpoint: [prefix]} = host prefix. Its modelled errors are the command's documented @throws.
    const s = service();
    const sdk = sfn as unknown as Record<string, unknown>;
    const commands = path.join(path.dirname(require.resolve('@aws-sdk/client-sfn')), '..', 'dist-types', 'commands');
    for (const op of s.getOperationNames()) {
      const o = s.getOperation(op);
      const traits = (sdk[`${op}$`] as [number, string, string, unknown])[3];
      const doc = readFileSync(path.join(commands, `${op}Command.d.ts`), 'utf8');
      const thrown = [...doc.matchAll(/@throws \{@link (\w+)\}/g)].map((m) => m[1]).filter((e) => e !== 'SFNServiceException');
      expect({ op, errors: o.errors.map((e) => e.shape).sort() }).toEqual({ op, errors: thrown.sort() });
      expect({ op, idempotent: o.idempotent === true }).toEqual({ op, idempotent: traits === 2 });
      const prefix = typeof traits === 'object' && traits !== null ? (traits as { endpoint?: string[] }).endpoint?.[0] : undefined;
      expect({ op, hostPrefix: o.endpoint?.hostPrefix }).toEqual({ op, hostPrefix: prefix });
    }
    expect(s.getOperation('TestState').endpoint).toEqual({ hostPrefix: 'sync-' });
    expect(s.getOperation('PublishStateMachineVersion').idempotent).toBe(true);
  });

  it('returns operations with http, input, output, errors, idempotent and hostPrefix', () => {
    const s = service();
    const start = s.getOperation('StartExecution');
    expect(start).toMatchObject({
      name: 'StartExecution',
      http: { method: 'POST', requestUri: '/' },
      input: { shape: 'StartExecutionInput' },
      output: { shape: 'StartExecutionOutput' },
      idempotent: true,
    });
    expect(start.errors.map((e) => e.shape)).toEqual(
      expect.arrayContaining(['ExecutionAlreadyExists', 'InvalidArn', 'StateMachineDoesNotExist', 'ValidationException']),
    );
    expect(s.getOperation('StartSyncExecution').endpoint).toEqual({ hostPrefix: 'sync-' });
    expect(s.getOperation('DescribeExecution').endpoint).toBeUndefined();
    expect(s.getOperation('DescribeExecution').idempotent).toBeUndefined();
    expect(() => s.getOperation('Nope')).toThrow(new InvalidArgumentError('Unknown operation: Nope'));
  });

  it('models the documented constraints and error shapes', () => {
    const s = service();
    expect(s.getShape('StartExecutionInput').required).toEqual(['stateMachineArn']);
    expect(s.getShape('Arn')).toMatchObject({ type: 'string', min: 1, max: 256 });
    expect(s.getShape('PageSize')).toMatchObject({ type: 'integer', min: 0, max: 1000 });
    expect(s.getShape('ExecutionStatus').enum).toEqual([
      'RUNNING',
      'SUCCEEDED',
      'FAILED',
      'TIMED_OUT',
      'ABORTED',
      'PENDING_REDRIVE',
    ]);
    expect(s.getShape('TraceHeader').pattern).toBe('\\p{ASCII}*');
    expect(s.getShape('ExecutionDoesNotExist')).toMatchObject({
      exception: true,
      error: { httpStatusCode: 400, senderFault: true },
    });
    // every error an operation names is an exception shape
    for (const op of s.getOperationNames()) {
      for (const e of s.getOperation(op).errors) expect(s.getShape(e.shape).exception).toBe(true);
    }
    expect(Object.keys(s.getErrorShapes())).toContain('ExecutionAlreadyExists');
    expect(() => s.getShape('Missing')).toThrow('Shape not found: Missing');
  });

  it('matches the official SDK schemas member for member: names, required, types, sensitivity and enum values', () => {
    const sdk = sfn as unknown as Record<string, unknown>;
    const s = service();
    const seen = new Set<string>();
    let compared = 0;
    const walk = (name: string): void => {
      if (seen.has(name)) return;
      seen.add(name);
      const mine = s.getShape(name);
      const schema = sdk[`${name}$`] as SdkStruct | undefined;
      if (mine.type === 'structure') {
        expect({ name, inSdk: schema !== undefined }).toEqual({ name, inSdk: true });
        const [, , , traits, names, members, requiredCount = 0] = schema!;
        expect({ name, members: Object.keys(mine.members ?? {}).sort() }).toEqual({ name, members: [...names].sort() });
        expect({ name, required: [...(mine.required ?? [])].sort() }).toEqual({
          name,
          required: names.slice(0, requiredCount).sort(),
        });
        expect({ name, sensitive: mine.sensitive === true }).toEqual({ name, sensitive: hasSensitive(traits) });
        names.forEach((member, i) => {
          expect({ name, member, type: describeMine(s, mine.members![member]) }).toEqual({
            name,
            member,
            type: describeSdk(members[i]),
          });
        });
        if (mine.exception) {
          const t = traits as { error?: string; httpError?: number };
          expect({ name, error: mine.error }).toEqual({
            name,
            error: { httpStatusCode: t.httpError ?? 400, senderFault: t.error === 'client' },
          });
        }
        compared++;
      }
      const values = sdk[name];
      if (mine.enum && values && typeof values === 'object') {
        expect({ name, enum: [...mine.enum].sort() }).toEqual({ name, enum: Object.values(values).sort() });
      }
      for (const ref of Object.values(mine.members ?? {})) walk(ref.shape);
      for (const ref of [mine.member, mine.key, mine.value]) if (ref) walk(ref.shape);
    };
    for (const op of s.getOperationNames()) {
      const o = s.getOperation(op);
      for (const ref of [o.input!, o.output!]) {
        expect(sdk[`${ref.shape}$`]).toBeDefined();
        walk(ref.shape);
      }
      for (const e of o.errors) walk(e.shape);
    }
    // every error the SDK knows is modelled
    for (const [key, value] of Object.entries(sdk)) {
      if (key.endsWith('$') && Array.isArray(value) && value[0] === -3 && key !== 'SFNServiceException$') {
        expect(s.getShape(key.slice(0, -1)).exception).toBe(true);
      }
    }
    expect(compared).toBeGreaterThan(150);
  });

  it('resolves a member reference with its traits over the target shape', () => {
    const s = service();
    const input = s.getInputShape('RedriveExecution');
    const token = s.resolveShape(input.members!.clientToken);
    expect(token).toMatchObject({ name: 'ClientToken', type: 'string', idempotencyToken: true, pattern: '[!-~]+' });
    expect(s.getShape('ClientToken').idempotencyToken).toBeUndefined();
  });

  it('returns paginator configs with null defaults, matching the SDK paginators', () => {
    const s = service();
    expect(s.getPaginatorConfig('ListExecutions')).toEqual({
      input_token: 'nextToken',
      output_token: 'nextToken',
      limit_key: 'maxResults',
      result_key: 'executions',
      more_results: null,
    });
    expect(s.getPaginatorConfig('GetExecutionHistory').result_key).toBe('events');
    expect(s.getPaginatorConfig('ListStateMachines').result_key).toBe('stateMachines');
    // the SDK's paginators, read from its createPaginator(Client, Command, inputToken, outputToken, pageSizeKey) calls
    const source = readFileSync(require.resolve('@aws-sdk/client-sfn'), 'utf8');
    const sdkPaginators = Object.fromEntries(
      [...source.matchAll(/createPaginator\(SFNClient, (\w+)Command, "(\w+)", "(\w+)", "(\w+)"\)/g)].map((m) => [
        m[1],
        { input_token: m[2], output_token: m[3], limit_key: m[4] },
      ]),
    );
    expect(Object.keys(sdkPaginators).length).toBeGreaterThanOrEqual(5);
    expect(Object.keys(s.getPaginators()).sort()).toEqual(Object.keys(sdkPaginators).sort());
    for (const [name, tokens] of Object.entries(sdkPaginators)) {
      const config = s.getPaginatorConfig(name);
      expect({ name, ...config }).toMatchObject({ name, ...tokens });
      // the result key is a list member of the output
      const out = s.getOutputShape(name);
      expect(s.getShape(out.members![config.result_key as string].shape).type).toBe('list');
    }
    expect(() => s.getPaginatorConfig('DescribeExecution')).toThrow(
      new UnexpectedValueError('There is no DescribeExecution paginator defined for the states service.'),
    );
  });

  it('defines the ExecutionSucceeded waiter (alias JobSucceeded) and the completion waiters', () => {
    const s = service();
    const w = s.getWaiterConfig('ExecutionSucceeded');
    expect(w).toMatchObject({ operation: 'DescribeExecution', delay: 5, maxAttempts: 60 });
    expect(w.acceptors).toEqual([
      { state: 'success', matcher: 'path', argument: 'status', expected: 'SUCCEEDED' },
      { state: 'failure', matcher: 'path', argument: 'status', expected: 'FAILED' },
      { state: 'failure', matcher: 'path', argument: 'status', expected: 'TIMED_OUT' },
      { state: 'failure', matcher: 'path', argument: 'status', expected: 'ABORTED' },
      { state: 'retry', matcher: 'error', expected: 'ExecutionDoesNotExist' },
    ]);
    expect(s.getWaiterConfig('JobSucceeded')).toEqual(w);
    expect(Object.keys(s.getWaiters()).sort()).toEqual([
      'ExecutionComplete',
      'ExecutionStopped',
      'ExecutionSucceeded',
      'JobSucceeded',
    ]);
    expect(() => s.getWaiterConfig('Nope')).toThrow(
      new UnexpectedValueError('There is no Nope waiter defined for the states service.'),
    );
  });

  it('serialises to the one JSON model and can be rebuilt from it', () => {
    const s = service();
    const json = JSON.parse(JSON.stringify(s)) as ApiModel;
    expect(json.metadata.targetPrefix).toBe('AWSStepFunctions');
    expect(Object.keys(json.paginators!.pagination)).toContain('ListExecutions');
    expect(Object.keys(json.waiters!.waiters)).toContain('ExecutionSucceeded');
    const again = new Service(json);
    expect(again.getOperationNames()).toEqual(s.getOperationNames());
    expect(again.getWaiterConfig('ExecutionSucceeded')).toEqual(s.getWaiterConfig('ExecutionSucceeded'));
    expect(s.getApi()).toEqual(json);
  });
});

describe('defaultApiProvider', () => {
  it("resolves 'latest' and the exact version, and nothing else", () => {
    expect(availableVersions('states')).toEqual(['2016-11-23']);
    const latest = defaultApiProvider('api', 'states', 'latest') as ApiModel;
    const exact = defaultApiProvider('api', 'states', '2016-11-23') as ApiModel;
    expect(latest.metadata.apiVersion).toBe('2016-11-23');
    expect(exact).toEqual(latest);
    expect(defaultApiProvider('api', 'states', '2015-01-01')).toBeNull();
    expect(defaultApiProvider('api', 'dynamodb', 'latest')).toBeNull();
    expect(defaultApiProvider('paginator', 'states', 'latest')).toHaveProperty('pagination.ListExecutions');
    expect(defaultApiProvider('waiter', 'states', 'latest')).toMatchObject({ version: 2 });
    expect(defaultApiProvider('docs' as never, 'states', 'latest')).toBeNull();
  });

  it('hands out copies, so one client changing its model does not change another', () => {
    const a = defaultApiProvider('api', 'states', 'latest') as ApiModel;
    a.operations.StartExecution.http.method = 'GET';
    const b = defaultApiProvider('api', 'states', 'latest') as ApiModel;
    expect(b.operations.StartExecution.http.method).toBe('POST');
  });

  it('Service.fromProvider throws for a version the provider does not have', () => {
    expect(() => Service.fromProvider(defaultApiProvider, 'states', '2015-01-01')).toThrow(
      new InvalidArgumentError('The states service does not have version: 2015-01-01.'),
    );
    expect(() => Service.fromProvider(() => null, 'states', 'latest')).toThrow(InvalidArgumentError);
  });

  it('a custom api_provider supplies paginators and waiters the model lacks, asked lazily', () => {
    const base = defaultApiProvider('api', 'states', 'latest') as ApiModel;
    delete base.paginators;
    delete base.waiters;
    const calls: string[] = [];
    const provider: ApiProvider = (type, svc, version) => {
      calls.push(`${type} ${svc} ${version}`);
      if (type === 'api') return base;
      if (type === 'paginator') return { pagination: { ListExecutions: { input_token: 'nextToken', output_token: 'nextToken', result_key: 'executions' } } };
      return { version: 2, waiters: { Done: { operation: 'DescribeExecution', delay: 1, maxAttempts: 2, acceptors: [] } } };
    };
    const s = Service.fromProvider(provider, 'states', 'latest');
    expect(calls).toEqual(['api states latest']);
    expect(s.getPaginatorConfig('ListExecutions').limit_key).toBeNull();
    expect(s.getWaiterConfig('Done').maxAttempts).toBe(2);
    expect(() => s.getPaginatorConfig('ListStateMachines')).toThrow('There is no ListStateMachines paginator');
    expect(calls).toEqual(['api states latest', 'paginator states 2016-11-23', 'waiter states 2016-11-23']);
  });
});
