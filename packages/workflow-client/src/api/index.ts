/**
 * The service description (aws-sdk-php's Aws\Api\Service + ApiProvider) for the workflow client. ONE JSON model —
 * `states-2016-11-23.json`, Step Functions 2016-11-23 in api-2 form with `paginators` (paginators-1) and `waiters`
 * (waiters-2) sections — drives validation, serialization, idempotency auto-fill, paginators and waiters. The
 * model was written for this project from the documented service facts (operation names, members, constraints,
 * error shapes); Step Functions models no waiters, so ours (ExecutionSucceeded / JobSucceeded, ExecutionComplete,
 * ExecutionStopped) follow reference §7.
 *
 * `api_provider` (reference §1) is a callable `(type, service, version) => object | null` with type api, paginator or
 * waiter; `defaultApiProvider` serves the bundled model, `'latest'` meaning its newest version.
 */
import { InvalidArgumentError } from '../errors';
import statesModel from './states-2016-11-23.json';

/** PHP's UnexpectedValueException: a paginator or waiter the model does not define, or one unfit for getIterator. */
export class UnexpectedValueError extends Error {
  override name = 'UnexpectedValueError';
}

/** A reference to a shape, with the traits the referring member adds (`idempotencyToken`, `box`, ...). */
export interface ShapeRef {
  shape: string;
  [trait: string]: unknown;
}

export type ShapeType =
  | 'structure'
  | 'list'
  | 'map'
  | 'string'
  | 'integer'
  | 'long'
  | 'float'
  | 'double'
  | 'boolean'
  | 'timestamp'
  | 'blob'
  | 'byte'
  | 'char';

export interface ShapeDef {
  type: ShapeType;
  members?: Record<string, ShapeRef>;
  required?: string[];
  member?: ShapeRef;
  key?: ShapeRef;
  value?: ShapeRef;
  min?: number;
  max?: number;
  pattern?: string;
  enum?: string[];
  sensitive?: boolean;
  box?: boolean;
  exception?: boolean;
  error?: { code?: string; httpStatusCode: number; senderFault?: boolean };
  [trait: string]: unknown;
}

/** A shape with its name, its referring member's traits merged over it (what validators and serializers walk). */
export type ResolvedShape = ShapeDef & { name: string };

export interface OperationDef {
  name: string;
  http: { method: string; requestUri: string; responseCode?: number };
  input?: ShapeRef;
  output?: ShapeRef;
  errors: ShapeRef[];
  idempotent?: boolean;
  endpoint?: { hostPrefix: string };
  [trait: string]: unknown;
}

export interface ServiceMetadata {
  apiVersion: string;
  endpointPrefix: string;
  jsonVersion: string;
  protocol: string;
  serviceFullName: string;
  serviceId: string;
  signatureVersion: string;
  signingName: string;
  targetPrefix: string;
  serviceIdentifier?: string;
  [key: string]: unknown;
}

/** A paginators-1.json entry, with PHP's null defaults filled in. */
export interface PaginatorConfig {
  input_token: string | string[] | null;
  output_token: string | string[] | null;
  limit_key: string | null;
  result_key: string | string[] | null;
  more_results: string | null;
}

export interface WaiterAcceptor {
  /** `failed` is accepted as a spelling of `failure` (reference §4). */
  state: 'success' | 'failure' | 'failed' | 'retry';
  matcher: 'path' | 'pathAll' | 'pathAny' | 'status' | 'error';
  expected: unknown;
  argument?: string;
}

/** A waiters-2.json entry (delay in seconds). */
export interface WaiterModel {
  operation: string;
  delay: number;
  maxAttempts: number;
  acceptors: WaiterAcceptor[];
  description?: string;
}

export interface ApiModel {
  version?: string;
  metadata: ServiceMetadata;
  operations: Record<string, OperationDef>;
  shapes: Record<string, ShapeDef>;
  /** paginators-1.json content. */
  paginators?: { pagination: Record<string, Partial<PaginatorConfig>> };
  /** waiters-2.json content. */
  waiters?: { version: number; waiters: Record<string, WaiterModel> };
}

export type ApiType = 'api' | 'paginator' | 'waiter';
export type ApiProvider = (type: ApiType, service: string, version: string) => object | null;

const PAGINATOR_DEFAULTS: PaginatorConfig = {
  input_token: null,
  output_token: null,
  limit_key: null,
  result_key: null,
  more_results: null,
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class Service {
  private readonly definition: ApiModel;
  private readonly serviceName: string;
  private paginators?: Record<string, Partial<PaginatorConfig>>;
  private waiters?: Record<string, WaiterModel>;
  /** Resolved shapes per reference object and input shapes per operation (validation runs on every command). */
  private readonly resolved = new WeakMap<ShapeRef, ResolvedShape>();
  private readonly inputs = new Map<string, ResolvedShape>();

  /**
   * @param definition the api model; its own `paginators` / `waiters` sections win over the provider's.
   * @param provider asked (lazily) for the `paginator` / `waiter` data the model does not carry.
   * @param serviceName the name used in messages; default `metadata.serviceIdentifier`, else `endpointPrefix`.
   */
  constructor(
    definition: ApiModel,
    private readonly provider: ApiProvider | null = null,
    serviceName?: string,
  ) {
    if (!isRecord(definition) || !isRecord(definition.metadata)) {
      throw new InvalidArgumentError('The service description must be an object with metadata, operations and shapes.');
    }
    this.definition = { ...definition, operations: definition.operations ?? {}, shapes: definition.shapes ?? {} };
    this.serviceName =
      serviceName ?? definition.metadata.serviceIdentifier ?? definition.metadata.endpointPrefix ?? 'unknown';
  }

  /** PHP ApiProvider::resolve + new Service: throws `The {service} service does not have version: {version}.` */
  static fromProvider(provider: ApiProvider, service: string, version: string): Service {
    const api = provider('api', service, version);
    if (!isRecord(api)) {
      throw new InvalidArgumentError(`The ${service} service does not have version: ${version}.`);
    }
    return new Service(api as unknown as ApiModel, provider, service);
  }

  /** The model (as JSON): metadata, operations, shapes, and the paginators / waiters in use. */
  getApi(): ApiModel {
    return this.toJSON();
  }

  get metadata(): ServiceMetadata {
    const m = this.definition.metadata;
    return { ...m, signingName: m.signingName ?? m.endpointPrefix };
  }

  getMetadata(key?: string): unknown {
    return key === undefined ? this.metadata : this.metadata[key];
  }
  getServiceName(): string {
    return this.serviceName;
  }
  getApiVersion(): string {
    return this.definition.metadata.apiVersion;
  }
  getSigningName(): string {
    return this.metadata.signingName;
  }
  getEndpointPrefix(): string {
    return this.definition.metadata.endpointPrefix;
  }
  getProtocol(): string {
    return this.definition.metadata.protocol;
  }
  getServiceFullName(): string {
    return this.definition.metadata.serviceFullName;
  }

  hasOperation(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.definition.operations, name);
  }
  getOperationNames(): string[] {
    return Object.keys(this.definition.operations);
  }
  /** Throws InvalidArgumentError `Unknown operation: {name}` (PHP Service::getOperation). */
  getOperation(name: string): OperationDef {
    if (!this.hasOperation(name)) throw new InvalidArgumentError(`Unknown operation: ${name}`);
    const op = this.definition.operations[name];
    return { ...op, name: op.name ?? name, errors: op.errors ?? [] };
  }

  hasShape(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.definition.shapes, name);
  }
  /** The shape as modelled; throws InvalidArgumentError `Shape not found: {name}` (PHP ShapeMap). */
  getShape(name: string): ShapeDef {
    if (!this.hasShape(name)) throw new InvalidArgumentError(`Shape not found: ${name}`);
    return this.definition.shapes[name];
  }
  /** The referenced shape with the reference's traits over it (PHP Shape::create); cached, treat as read-only. */
  resolveShape(ref: ShapeRef): ResolvedShape {
    let resolved = this.resolved.get(ref);
    if (!resolved) {
      const { shape, ...traits } = ref;
      resolved = { ...this.getShape(shape), ...traits, name: shape } as ResolvedShape;
      this.resolved.set(ref, resolved);
    }
    return resolved;
  }
  /** The operation's input structure (an empty structure when the operation has none). */
  getInputShape(operation: string): ResolvedShape {
    let shape = this.inputs.get(operation);
    if (!shape) {
      const op = this.getOperation(operation);
      shape = op.input ? this.resolveShape(op.input) : { type: 'structure', members: {}, name: `${operation}Input` };
      this.inputs.set(operation, shape);
    }
    return shape;
  }
  getOutputShape(operation: string): ResolvedShape {
    const op = this.getOperation(operation);
    return op.output ? this.resolveShape(op.output) : { type: 'structure', members: {}, name: `${operation}Output` };
  }
  /** The exception shapes of the model, by name (`exception: true`). */
  getErrorShapes(): Record<string, ShapeDef> {
    return Object.fromEntries(Object.entries(this.definition.shapes).filter(([, s]) => s.exception === true));
  }

  getPaginators(): Record<string, Partial<PaginatorConfig>> {
    if (this.paginators === undefined) {
      const section =
        this.definition.paginators ?? this.fromProvider<{ pagination?: Record<string, Partial<PaginatorConfig>> }>('paginator');
      this.paginators = section?.pagination ?? {};
    }
    return this.paginators;
  }
  hasPaginator(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.getPaginators(), name);
  }
  /** The paginators-1 entry with null defaults; throws `There is no {name} paginator defined for the {svc} service.` */
  getPaginatorConfig(name: string): PaginatorConfig {
    if (!this.hasPaginator(name)) {
      throw new UnexpectedValueError(`There is no ${name} paginator defined for the ${this.serviceName} service.`);
    }
    return { ...PAGINATOR_DEFAULTS, ...this.getPaginators()[name] };
  }

  getWaiters(): Record<string, WaiterModel> {
    if (this.waiters === undefined) {
      const section = this.definition.waiters ?? this.fromProvider<{ waiters?: Record<string, WaiterModel> }>('waiter');
      this.waiters = section?.waiters ?? {};
    }
    return this.waiters;
  }
  hasWaiter(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.getWaiters(), name);
  }
  /** The waiters-2 entry; throws `There is no {name} waiter defined for the {svc} service.` */
  getWaiterConfig(name: string): WaiterModel {
    if (!this.hasWaiter(name)) {
      throw new UnexpectedValueError(`There is no ${name} waiter defined for the ${this.serviceName} service.`);
    }
    return this.getWaiters()[name];
  }

  toJSON(): ApiModel {
    return {
      ...this.definition,
      metadata: this.metadata,
      paginators: { pagination: this.getPaginators() },
      waiters: { version: 2, waiters: this.getWaiters() },
    };
  }

  private fromProvider<T>(type: 'paginator' | 'waiter'): T | null {
    if (!this.provider) return null;
    const data = this.provider(type, this.serviceName, this.getApiVersion());
    return isRecord(data) ? (data as T) : null;
  }
}

/** The bundled models: service name → version → model. */
const MODELS: Record<string, Record<string, ApiModel>> = {
  states: { '2016-11-23': statesModel as unknown as ApiModel },
};
/** Other names the same service is known by (botocore's and the JS SDK's). */
const ALIASES: Record<string, string> = { sfn: 'states', stepfunctions: 'states' };

/** The versions the default provider has for `service`, oldest first (empty for an unknown service). */
export function availableVersions(service: string): string[] {
  const models = MODELS[ALIASES[service] ?? service];
  return models ? Object.keys(models).sort() : [];
}

/**
 * PHP's ApiProvider::defaultProvider over the bundled model. `'latest'` is the newest version. Returns null for an
 * unknown service, version or type; each call returns a fresh copy, so a caller may change what it gets.
 */
export function defaultApiProvider(type: ApiType, service: string, version: string): object | null {
  const models = MODELS[ALIASES[service] ?? service];
  if (!models) return null;
  const versions = Object.keys(models).sort();
  const resolved = version === 'latest' ? versions[versions.length - 1] : version;
  const model = resolved === undefined ? undefined : models[resolved];
  if (!model) return null;
  switch (type) {
    case 'api': {
      const copy = structuredClone(model);
      if (copy.metadata.serviceIdentifier === undefined) copy.metadata.serviceIdentifier = service;
      return copy;
    }
    case 'paginator':
      return model.paginators ? structuredClone(model.paginators) : null;
    case 'waiter':
      return model.waiters ? structuredClone(model.waiters) : null;
    default:
      return null;
  }
}
