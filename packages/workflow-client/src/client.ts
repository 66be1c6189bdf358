/**
 * `WorkflowClient` — the workflow service's client class of spec 002, for any Step-Functions-compatible endpoint
 * (the gateway's `/workflow`, or AWS). Semantics follow aws-sdk-php's AwsClient (../shared/reference/
 * workflow-client.md); in TypeScript every call is asynchronous, so `execute` and `executeAsync` both return a
 * Promise (as do the operation methods `client.startExecution(args)` and `client.startExecutionAsync(args)`).
 *
 * A command runs through its handler list (handler-list.ts): init (`idempotency_auto_fill`), validate
 * (`validation`), build (`builder`: the JSON 1.0 request, endpoint and host prefix, User-Agent), sign (`retry`, then
 * `signer`: every attempt is signed again), attempt, then the terminal handler (the HTTP handler, answers parsed
 * into a Result or a WorkflowServiceException).
 *
 * The client holds its credentials out of reach of serialisation: JSON.stringify, util.inspect and structuredClone
 * of a client show no secret (`toJSON` is the `__sleep` equivalent).
 */
import { inspect } from 'node:util';
import { ActivityHandler, ActivityWorker, PollActivityOptions, startActivityWorker } from './activity-worker';
import { ApiProvider, defaultApiProvider, Service } from './api';
import { Command } from './command';
import { resolveCredentials, resolveToken } from './credentials';
import { InvalidArgumentError, WorkflowServiceException } from './errors';
import { HandlerList } from './handler-list';
import { createNodeHttpHandler, NodeHttpHandler } from './http-handler';
import { idempotencyMiddleware } from './idempotency';
import { JsonProtocol } from './json-protocol';
import { ResultPaginator, resultIterator } from './paginator';
import {
  AccountIdEndpointMode,
  argumentsTable,
  ArgumentSpec,
  ARGUMENTS,
  checkAccountIdEndpointMode,
  checkArgument,
  checkRegion,
  SERVICE,
} from './resolver';
import { resolveRetries, retryMiddleware } from './retry';
import { defaultSignatureProvider } from './signer';
import type {
  CommandLike,
  CredentialProvider,
  Credentials,
  Handler,
  HttpHandler,
  HttpOptions,
  ResolveContext,
  Result,
  ResultMetadata,
  SignatureProvider,
  Signer,
  Token,
  TokenProvider,
  WireRequest,
} from './types';
import { userAgent } from './user-agent';
import { constraintsFromOption, validationMiddleware } from './validator';
import { Waiter } from './waiter';
import { extraMiddleware, ExtraOptions, resolveExtras } from './client-extras';
import { createResolveContext, envOrSharedConfig } from './config-files';

export type EndpointProvider = (args: { service: string; region: string; scheme: string }) => { endpoint: string; [k: string]: unknown } | null | undefined;

/** The constructor options (spec 002), snake_case as documented. */
export interface WorkflowClientOptions {
  region: string;
  version: string;
  credentials?: Credentials | { key: string; secret: string; token?: string; expires?: number; accountId?: string } | false | CredentialProvider;
  token?: Token | { token: string; expires?: number } | false | TokenProvider;
  profile?: string;
  use_vendor_shared_config_files?: boolean;
  endpoint?: string;
  scheme?: 'http' | 'https' | string;
  endpoint_provider?: EndpointProvider;
  endpoint_discovery?: { enabled?: boolean; cache_limit?: number } | boolean | (() => unknown);
  disable_host_prefix_injection?: boolean;
  api_provider?: ApiProvider;
  handler?: Handler;
  http_handler?: HttpHandler;
  http?: HttpOptions;
  retries?: number | { mode?: string; max_attempts?: number } | (() => unknown);
  signature_provider?: SignatureProvider;
  signature_version?: string;
  validate?: boolean | string[] | Record<string, boolean>;
  idempotency_auto_fill?: boolean | ((n: number) => Uint8Array | string);
  account_id_endpoint_mode?: 'preferred' | 'required' | 'disabled' | string;
  ua_append?: string | string[];
  app_id?: string;
  csm?: ExtraOptions['csm'];
  debug?: ExtraOptions['debug'];
  stats?: ExtraOptions['stats'];
}

/** The client's state, kept in a WeakMap (under the client and its Proxy), never on the object. */
interface State {
  region: string;
  version: string;
  service: Service;
  protocol: JsonProtocol;
  config: Record<string, unknown>;
  credentials: CredentialProvider;
  token: TokenProvider;
  endpoint: URL;
  endpointProvider: EndpointProvider;
  signatureProvider: SignatureProvider;
  signatureVersion: string;
  handlerList: HandlerList;
  httpDefaults: HttpOptions;
  accountIdEndpointMode: AccountIdEndpointMode;
  ownHttpHandler?: NodeHttpHandler;
  warnedAccountId: boolean;
}

const STATE = new WeakMap<object, State>();
let factoryWarned = false;

function state(client: object): State {
  const s = STATE.get(client);
  if (!s) throw new TypeError('not a WorkflowClient');
  return s;
}

const ucfirst = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

function defaultEndpointProvider({ service, region, scheme }: { service: string; region: string; scheme: string }) {
  return { endpoint: `${scheme}://${service}.${region}.amazonaws.com` };
}

function parseEndpoint(value: string): URL {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new InvalidArgumentError(`Endpoints must be full URIs and include a scheme and host (got ${JSON.stringify(value.slice(0, 200))})`);
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) {
    throw new InvalidArgumentError(`Endpoints must be full URIs and include a scheme (http or https) and host (got ${JSON.stringify(value.slice(0, 200))})`);
  }
  return u;
}

/** The terminal handler around an HTTP handler (PHP's WrappedHttpHandler). */
function wrapHttpHandler(httpHandler: HttpHandler, protocol: JsonProtocol, statsHttp: () => boolean): Handler {
  return async (command: CommandLike, request?: WireRequest): Promise<Result> => {
    if (!request) throw new InvalidArgumentError('The terminal handler needs a request (the build step makes it)');
    const port = request.port ? `:${request.port}` : '';
    const uri = `${request.protocol}//${request.hostname}${port}${request.path}`;
    const opts = (command.args['@http'] ?? {}) as HttpOptions;
    let stats: Record<string, unknown> | undefined;
    const withStats = statsHttp()
      ? {
          ...opts,
          http_stats_receiver: (s: Record<string, unknown>) => {
            stats = s;
            if (typeof opts.http_stats_receiver === 'function') opts.http_stats_receiver(s);
          },
        }
      : opts;
    let response;
    try {
      response = await httpHandler(request, withStats);
    } catch (e) {
      const metadata: ResultMetadata = { effectiveUri: uri, headers: {}, transferStats: stats ? { http: [stats] } : {} };
      const err = new WorkflowServiceException(`Error executing "${command.name}" on "${uri}"; AWS HTTP error: ${(e as Error)?.message ?? String(e)}`, {
        command,
        request,
        connectionError: true,
        previous: e,
        result: { '@metadata': metadata } as Result,
      });
      err.transferInfo = { ...metadata.transferStats };
      throw err;
    }
    const metadata: ResultMetadata = { statusCode: response.statusCode, effectiveUri: uri, headers: response.headers, transferStats: stats ? { http: [stats] } : {} };
    if (response.statusCode >= 200 && response.statusCode < 300) {
      try {
        return protocol.parse(command.name, response, metadata);
      } catch (e) {
        // A 2xx answer that is not the operation's JSON (a proxy's HTML page, a cut body).
        throw new WorkflowServiceException(`Error executing "${command.name}" on "${uri}"; the ${response.statusCode} answer could not be parsed: ${(e as Error)?.message ?? String(e)}`, {
          command,
          request,
          response,
          type: 'server',
          statusCode: response.statusCode,
          requestId: response.headers['x-amzn-requestid'],
          previous: e,
          result: { '@metadata': metadata } as Result,
        });
      }
    }
    const err = protocol.error(command, request, response, uri, { '@metadata': metadata } as Result);
    err.transferInfo = { ...metadata.transferStats };
    throw err;
  };
}

export class WorkflowClient {
  /** The constructor options with their types, defaults and documentation (spec: getArguments). */
  static getArguments(): Record<string, ArgumentSpec> {
    return argumentsTable();
  }

  /** @deprecated Use `new WorkflowClient(options)`. Works, and warns once per process. */
  static factory(config: WorkflowClientOptions): WorkflowClient {
    if (!factoryWarned) {
      factoryWarned = true;
      process.emitWarning('WorkflowClient.factory() is deprecated; use new WorkflowClient(options).', 'DeprecationWarning');
    }
    return new WorkflowClient(config);
  }

  constructor(options: WorkflowClientOptions, env: Record<string, string | undefined> = process.env) {
    if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new InvalidArgumentError('The client options must be an object');
    const o = options as unknown as Record<string, unknown>;
    const config: Record<string, unknown> = {};
    const keep = (name: string, value: unknown) => {
      if (ARGUMENTS[name].type === 'config' && value !== undefined) config[name] = value;
      return value;
    };
    // In the table's order.
    const region = checkArgument('region', o.region) as string;
    const version = checkArgument('version', o.version) as string;
    const profile = keep('profile', checkArgument('profile', o.profile)) as string | undefined;
    const useShared = keep('use_vendor_shared_config_files', (checkArgument('use_vendor_shared_config_files', o.use_vendor_shared_config_files) as boolean | undefined) ?? true) as boolean;
    const ctx: ResolveContext = createResolveContext({ profile, use_vendor_shared_config_files: useShared }, env);
    const credentialsValue = checkArgument('credentials', o.credentials);
    // A profile makes given credentials ignored (PHP: credentials = CredentialProvider::ini(profile)).
    const credentials = resolveCredentials(profile !== undefined ? undefined : credentialsValue, ctx);
    const token = resolveToken(checkArgument('token', o.token), ctx);
    const endpointValue = checkArgument('endpoint', o.endpoint) as string | undefined;
    const scheme = keep('scheme', (checkArgument('scheme', o.scheme) as string | undefined) ?? 'https') as string;
    if (scheme !== 'https' && scheme !== 'http') throw new InvalidArgumentError(`Invalid configuration value provided for "scheme": "http" or "https" (got ${JSON.stringify(String(scheme).slice(0, 64))})`);
    const endpointProvider = (checkArgument('endpoint_provider', o.endpoint_provider) as EndpointProvider | undefined) ?? defaultEndpointProvider;
    const discovery = checkArgument('endpoint_discovery', o.endpoint_discovery);
    const discoveryConfig =
      typeof discovery === 'function' ? discovery : typeof discovery === 'boolean' ? { enabled: discovery, cache_limit: 1000 } : { enabled: false, cache_limit: 1000, ...((discovery as object | undefined) ?? {}) };
    const disableHostPrefix = keep('disable_host_prefix_injection', (checkArgument('disable_host_prefix_injection', o.disable_host_prefix_injection) as boolean | undefined) ?? false) as boolean;
    const apiProvider = (checkArgument('api_provider', o.api_provider) as ApiProvider | undefined) ?? defaultApiProvider;
    const service = Service.fromProvider(apiProvider, SERVICE, version);
    const protocol = new JsonProtocol(service);
    const handlerOption = checkArgument('handler', o.handler) as Handler | undefined;
    const httpHandlerOption = checkArgument('http_handler', o.http_handler) as HttpHandler | undefined;
    const httpDefaults = keep('http', (checkArgument('http', o.http) as HttpOptions | undefined) ?? {}) as HttpOptions;
    const retriesValue = checkArgument('retries', o.retries);
    const signatureProvider = (checkArgument('signature_provider', o.signature_provider) as SignatureProvider | undefined) ?? defaultSignatureProvider;
    let signatureVersion = keep('signature_version', (checkArgument('signature_version', o.signature_version) as string | undefined) ?? String(service.metadata.signatureVersion ?? 'v4')) as string;
    if (credentialsValue === false && profile === undefined) signatureVersion = config.signature_version = 'anonymous';
    const validate = checkArgument('validate', o.validate);
    const autoFill = checkArgument('idempotency_auto_fill', o.idempotency_auto_fill) as boolean | ((n: number) => Uint8Array | string) | undefined;
    const accountIdMode = checkAccountIdEndpointMode(
      keep('account_id_endpoint_mode', (checkArgument('account_id_endpoint_mode', o.account_id_endpoint_mode) as string | undefined) ?? envOrSharedConfig(ctx, 'AWS_ACCOUNT_ID_ENDPOINT_MODE', 'account_id_endpoint_mode') ?? 'preferred') as string,
    );
    const uaAppend = checkArgument('ua_append', o.ua_append) as string | string[] | undefined;
    const extras = resolveExtras({ app_id: checkArgument('app_id', o.app_id), csm: checkArgument('csm', o.csm), debug: checkArgument('debug', o.debug), stats: checkArgument('stats', o.stats) }, ctx);
    if (extras.appId !== undefined) config.app_id = extras.appId;

    checkRegion(region, endpointValue !== undefined && endpointValue !== '');
    let endpoint: URL;
    if (endpointValue !== undefined && endpointValue !== '') {
      endpoint = parseEndpoint(endpointValue);
    } else {
      const found = endpointProvider({ service: SERVICE, region, scheme });
      if (!found || typeof found.endpoint !== 'string') throw new InvalidArgumentError(`Unable to resolve an endpoint using the provider arguments: ${JSON.stringify({ service: SERVICE, region, scheme })}`);
      endpoint = parseEndpoint(found.endpoint);
    }

    // ---- the handler list ----
    const ownHttpHandler = httpHandlerOption || handlerOption ? undefined : createNodeHttpHandler();
    const terminal = httpHandlerOption
      ? wrapHttpHandler(httpHandlerOption, protocol, () => extras.stats.http)
      : (handlerOption ?? wrapHttpHandler(ownHttpHandler!, protocol, () => extras.stats.http));
    const list = new HandlerList(terminal);
    if (autoFill !== false) list.prependInit(idempotencyMiddleware(service, typeof autoFill === 'function' ? autoFill : undefined), 'idempotency_auto_fill');
    const constraints = constraintsFromOption(validate);
    if (constraints) list.appendValidate(validationMiddleware(service, constraints), 'validation');
    const ua = userAgent({ serviceId: String(service.metadata.serviceId ?? SERVICE), apiVersion: service.getApiVersion(), appId: extras.appId, append: uaAppend === undefined ? [] : Array.isArray(uaAppend) ? uaAppend.map(String) : [uaAppend] });
    const baseHeaders = { 'user-agent': ua, 'x-amz-user-agent': ua };
    const hostFor = new Map<string, URL>();
    list.prependBuild(
      (next) => (command) => {
        let target = endpoint;
        const prefix = disableHostPrefix ? undefined : (service.getOperation(command.name).endpoint as { hostPrefix?: string } | undefined)?.hostPrefix;
        if (prefix) {
          target = hostFor.get(prefix) ?? new URL(endpoint.href);
          if (!hostFor.has(prefix)) {
            target.hostname = `${prefix}${endpoint.hostname}`;
            hostFor.set(prefix, target);
          }
        }
        return next(command, protocol.build(command, target, baseHeaders));
      },
      'builder',
    );
    const retry = resolveRetries(retriesValue, { ...ctx, sharedConfig: extras.sharedConfig });
    list.appendSign(retryMiddleware(retry, { stats: extras.stats.retries }), 'retry');
    let signer: Signer | null | undefined;
    const st: State = {
      region,
      version,
      service,
      protocol,
      config,
      credentials,
      token,
      endpoint,
      endpointProvider,
      signatureProvider,
      signatureVersion,
      handlerList: list,
      httpDefaults,
      accountIdEndpointMode: accountIdMode,
      ownHttpHandler,
      warnedAccountId: false,
    };
    list.appendSign(
      (next) => async (command, request) => {
        if (!request) return next(command, request);
        const creds = signatureVersion === 'anonymous' ? null : await credentials();
        if (creds === null) return next(command, request);
        if (accountIdMode !== 'disabled' && !creds.accountId) {
          if (accountIdMode === 'required') throw new InvalidArgumentError('The account_id_endpoint_mode is "required", but the resolved credentials carry no accountId.');
          if (!st.warnedAccountId) {
            st.warnedAccountId = true;
            process.emitWarning('The resolved credentials carry no accountId (account_id_endpoint_mode "preferred"); requests go to the regular endpoint.', 'AccountIdWarning');
          }
        }
        if (!signer) {
          signer = signatureProvider(signatureVersion, service.getSigningName(), region);
          if (!signer) throw new InvalidArgumentError(`Unable to resolve a signature for ${signatureVersion}/${service.getSigningName()}/${region}.`);
        }
        return next(command, await signer.sign(request, creds));
      },
      'signer',
    );
    extraMiddleware(list, extras, { service: SERVICE, region, api: service, userAgent: ua });
    config.endpoint_discovery = discoveryConfig;
    STATE.set(this, st);
    const proxy = new Proxy(this, {
      get(target, prop, receiver) {
        if (typeof prop !== 'string' || prop in target) return Reflect.get(target, prop, receiver);
        const async = prop.endsWith('Async');
        const op = ucfirst(async ? prop.slice(0, -5) : prop);
        if (!service.hasOperation(op)) return undefined;
        return (args: Record<string, unknown> = {}) => receiver.execute(receiver.getCommand(op, args));
      },
      has(target, prop) {
        if (prop in target) return true;
        if (typeof prop !== 'string') return false;
        return service.hasOperation(ucfirst(prop.endsWith('Async') ? prop.slice(0, -5) : prop));
      },
    });
    STATE.set(proxy, st);
    return proxy;
  }

  /** The service description (operations, shapes, paginators, waiters): one JSON model. */
  getApi(): Service {
    return state(this).service;
  }

  /** A command of an operation (IAE "Operation not found" for an unknown one; `http` merged into `@http`). */
  getCommand(name: string, args: Record<string, unknown> = {}): Command {
    const s = state(this);
    let op = name;
    if (!s.service.hasOperation(op)) {
      op = ucfirst(name);
      if (!s.service.hasOperation(op)) throw new InvalidArgumentError(`Operation not found: ${String(name).slice(0, 100)}`);
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new InvalidArgumentError(`The arguments of ${op} must be an object`);
    const a: Record<string, unknown> = { ...args };
    const given = a['@http'];
    a['@http'] = { ...s.httpDefaults, ...(given && typeof given === 'object' ? (given as object) : {}) };
    return new Command(op, a, s.handlerList.clone());
  }

  /** Run a command (a Promise in JS, as executeAsync). */
  execute(command: Command | CommandLike): Promise<Result> {
    return this.executeAsync(command);
  }

  executeAsync(command: Command | CommandLike): Promise<Result> {
    const list = command instanceof Command ? command.getHandlerList() : state(this).handlerList;
    try {
      return list.resolve()(command);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** The config bag (options of type config); one option, or null when unknown or unset. */
  getConfig(option?: string | null): unknown {
    const c = state(this).config;
    if (option === undefined || option === null) return { ...c };
    return c[option] ?? null;
  }

  getRegion(): string {
    return state(this).region;
  }

  /** The credentials requests are signed with (null for unsigned requests). */
  getCredentials(): Promise<Credentials | null> {
    return state(this).credentials();
  }

  getToken(): Promise<Token | null> {
    return state(this).token();
  }

  /** The endpoint (base URL) requests go to. */
  getEndpoint(): URL {
    return new URL(state(this).endpoint.href);
  }

  getEndpointProvider(): EndpointProvider {
    return state(this).endpointProvider;
  }

  /** Built-in keys and values for endpoint resolution. */
  getClientBuiltIns(): Record<string, unknown> {
    const s = state(this);
    return {
      'SDK::Endpoint': s.endpoint.href,
      'AWS::Region': s.region,
      'AWS::UseFIPS': false,
      'AWS::UseDualStack': false,
      'AWS::Auth::AccountIdEndpointMode': s.accountIdEndpointMode,
    };
  }

  /** Service context parameters for endpoint resolution (Step Functions has none). */
  getClientContextParams(): Record<string, unknown> {
    return {};
  }

  /** The endpoint resolution arguments: the built-ins keyed by their last segment, context parameters over them. */
  getEndpointProviderArgs(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(this.getClientBuiltIns())) out[k.split('::').pop()!] = v;
    return { ...out, ...this.getClientContextParams() };
  }

  getHandlerList(): HandlerList {
    return state(this).handlerList;
  }

  getSignatureProvider(): SignatureProvider {
    return state(this).signatureProvider;
  }

  /** Pages of an operation (an async iterable of Results over nextToken). */
  getPaginator(name: string, args: Record<string, unknown> = {}): ResultPaginator {
    const s = state(this);
    return new ResultPaginator(this, ucfirst(name), args, s.service.getPaginatorConfig(ucfirst(name)));
  }

  /** The items of an operation's result key across pages (an async iterable). */
  getIterator(name: string, args: Record<string, unknown> = {}): AsyncIterable<unknown> {
    const s = state(this);
    return resultIterator(this, ucfirst(name), args, s.service.getPaginatorConfig(ucfirst(name)), s.service.getServiceFullName());
  }

  getWaiter(name: string, args: Record<string, unknown> = {}): Waiter {
    const s = state(this);
    return new Waiter(this, name, args, s.service.getWaiterConfig(name));
  }

  /** Resolves when the waiter succeeds; rejects with a WaiterError on failure or after its attempts. */
  waitUntil(name: string, args: Record<string, unknown> = {}): Promise<void> {
    return this.getWaiter(name, args).promise();
  }

  /**
   * An activity worker: long-polls GetActivityTask for `activityArn`, runs `handler(input, task)` for each task
   * (`concurrency` at a time), sends SendTaskHeartbeat every `heartbeat` seconds while it runs, and reports
   * SendTaskSuccess with its result (as JSON) or SendTaskFailure with the thrown error's name and message.
   * `stop()` (or aborting `signal`) ends it once the running tasks are reported (activity-worker.ts).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  pollActivity<I = any, O = unknown>(activityArn: string, handler: ActivityHandler<I, O>, options: PollActivityOptions = {}): ActivityWorker {
    const call = (operation: string, args: Record<string, unknown>) => this.execute(this.getCommand(operation, args));
    return startActivityWorker({ call }, activityArn, handler as ActivityHandler, options);
  }

  /** Close the client's kept-alive connections. */
  destroy(): void {
    state(this).ownHttpHandler?.destroy();
  }

  /** What serialising a client gives (PHP's __sleep): never credentials or tokens. */
  toJSON(): Record<string, unknown> {
    const s = state(this);
    return { service: SERVICE, region: s.region, version: s.version, endpoint: s.endpoint.href, config: { ...s.config } };
  }

  [inspect.custom](): string {
    return `WorkflowClient ${inspect(this.toJSON())}`;
  }
}

/** The operation methods the Proxy answers (every operation of the model; `…Async` variants too). */
type OperationName =
  | 'createActivity'
  | 'createStateMachine'
  | 'createStateMachineAlias'
  | 'deleteActivity'
  | 'deleteStateMachine'
  | 'deleteStateMachineAlias'
  | 'deleteStateMachineVersion'
  | 'describeActivity'
  | 'describeExecution'
  | 'describeMapRun'
  | 'describeStateMachine'
  | 'describeStateMachineAlias'
  | 'describeStateMachineForExecution'
  | 'getActivityTask'
  | 'getExecutionHistory'
  | 'listActivities'
  | 'listExecutions'
  | 'listMapRuns'
  | 'listStateMachineAliases'
  | 'listStateMachineVersions'
  | 'listStateMachines'
  | 'listTagsForResource'
  | 'publishStateMachineVersion'
  | 'redriveExecution'
  | 'sendTaskFailure'
  | 'sendTaskHeartbeat'
  | 'sendTaskSuccess'
  | 'startExecution'
  | 'startSyncExecution'
  | 'stopExecution'
  | 'tagResource'
  | 'testState'
  | 'untagResource'
  | 'updateMapRun'
  | 'updateStateMachine'
  | 'updateStateMachineAlias'
  | 'validateStateMachineDefinition';

type OperationMethods = {
  [K in OperationName | `${OperationName}Async`]: (args?: Record<string, unknown>) => Promise<Result>;
};

// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface WorkflowClient extends OperationMethods {}
