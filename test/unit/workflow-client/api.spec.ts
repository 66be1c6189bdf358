/**
 * The service description: the bundled Step Functions model (operations, shapes, constraints, error shapes,
 * paginators, waiters), the Service accessors A1's client calls, and the default api provider ('latest', unknown
 * versions, copies). Operation and paginator names are checked against the real @aws-sdk/client-sfn.
 */
import * as sfn from '@aws-sdk/client-sfn';
import { InvalidArgumentError } from '../../../src/workflow-client/errors';
import {
  Service,
  UnexpectedValueError,
  availableVersions,
  defaultApiProvider,
  type ApiModel,
  type ApiProvider,
} from '../../../src/workflow-client/api';

const service = () => Service.fromProvider(defaultApiProvider, 'states', 'latest');

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

  it('models the job and state-machine operations, each a real SFN operation', () => {
    const s = service();
    const required = [
      'CreateStateMachine',
      'DescribeStateMachine',
      'UpdateStateMachine',
      'DeleteStateMachine',
      'ListStateMachines',
      'StartExecution',
      'StartSyncExecution',
      'DescribeExecution',
      'ListExecutions',
      'StopExecution',
      'GetExecutionHistory',
    ];
    for (const op of required) expect(s.hasOperation(op)).toBe(true);
    expect(s.getOperationNames().length).toBeGreaterThanOrEqual(25);
    // every modelled operation exists in the official SDK under the same name
    const sdk = sfn as unknown as Record<string, unknown>;
    for (const op of s.getOperationNames()) expect(typeof sdk[`${op}Command`]).toBe('function');
    expect(s.hasOperation('startExecution')).toBe(false);
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

  it('matches the official SDK schemas: member names, required members and enum values', () => {
    // @aws-sdk/client-sfn exports each structure's schema as `${Name}$` = [3, ns, name, traits, memberNames,
    // memberSchemas, requiredCount] with the required members first, and each enum as an object of its values.
    const sdk = sfn as unknown as Record<string, unknown>;
    const s = service();
    const seen = new Set<string>();
    let compared = 0;
    const walk = (name: string): void => {
      if (seen.has(name)) return;
      seen.add(name);
      const mine = s.getShape(name);
      const schema = sdk[`${name}$`] as [number, string, string, unknown, string[], unknown, number?] | undefined;
      if (mine.type === 'structure' && schema) {
        const [, , , , names, , requiredCount = 0] = schema;
        expect({ name, members: Object.keys(mine.members ?? {}).sort() }).toEqual({ name, members: [...names].sort() });
        expect({ name, required: [...(mine.required ?? [])].sort() }).toEqual({
          name,
          required: names.slice(0, requiredCount).sort(),
        });
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
    expect(compared).toBeGreaterThan(80);
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
    const sdk = sfn as unknown as Record<string, unknown>;
    for (const name of Object.keys(s.getPaginators())) expect(typeof sdk[`paginate${name}`]).toBe('function');
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
