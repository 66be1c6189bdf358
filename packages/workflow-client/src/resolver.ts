/**
 * The constructor options (spec 002's table; semantics of aws-sdk-php's ClientResolver, reference §1). Options are
 * resolved in the table's order: `undefined`/`null` means unset (the default applies), `false` is a value. A
 * required option that is unset, or a value of the wrong type, throws InvalidArgumentError naming the option, the
 * expected and the actual type, and the option's documentation:
 *   Invalid configuration value provided for "retries". Expected int|array|callable, but got string(3) "abc"
 * `getArguments()` returns this table (without the functions). Options of type `config` are what `getConfig()`
 * returns (as PHP: `getConfig('region')` is null; the region is `getRegion()`).
 */
import { InvalidArgumentError } from './errors';
import { Credentials, Token } from './types';

export type ValidType = 'string' | 'bool' | 'int' | 'array' | 'callable' | 'Credentials' | 'Token';

export interface ArgumentSpec {
  /** `value`: kept on the client; `config`: also in getConfig(). */
  type: 'value' | 'config';
  valid: ValidType[];
  doc: string;
  required?: boolean;
  /** The documented default (as data; computed defaults are described in `doc`). */
  default?: unknown;
}

export const SERVICE = 'states';

export const ARGUMENTS: Record<string, ArgumentSpec> = {
  region: {
    type: 'value',
    valid: ['string'],
    required: true,
    doc: `Region to connect to. A "region" configuration value is required for the "${SERVICE}" service (e.g., "us-west-2"). A list of available public regions and endpoints can be found at http://docs.aws.amazon.com/general/latest/gr/rande.html.`,
  },
  version: {
    type: 'value',
    valid: ['string'],
    required: true,
    doc: 'The version of the webservice to utilize (e.g., 2016-11-23). A "version" configuration value is required. Specifying a version constraint ensures that your code will not be affected by a breaking change made to the service. You may provide "latest" to use the most recent version your API provider can find (not recommended in production).',
  },
  profile: { type: 'config', valid: ['string'], doc: 'Profile of the shared credentials file (~/.aws/credentials) to take credentials from; overrides AWS_PROFILE and makes the credentials option ignored.' },
  use_vendor_shared_config_files: { type: 'config', valid: ['bool'], default: true, doc: 'When false, the shared config and credentials files in the home directory are not read (overrides AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE).' },
  credentials: {
    type: 'value',
    valid: ['Credentials', 'array', 'bool', 'callable'],
    doc: 'Credentials to sign requests with: a Credentials object, an array {key, secret, token?, expires?, accountId?}, a function returning a Promise of credentials, or false for unsigned requests. Unset: the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), then the shared files.',
  },
  token: { type: 'value', valid: ['Token', 'array', 'bool', 'callable'], doc: 'A bearer token for services that use one: a Token object, an array {token, expires?}, a function returning a Promise of a Token, or false for none.' },
  endpoint: { type: 'value', valid: ['string'], doc: 'The full URI of the webservice (e.g. http://localhost:4000/workflow). Only needed for a custom endpoint.' },
  scheme: { type: 'config', valid: ['string'], default: 'https', doc: 'URI scheme of the endpoint the endpoint provider builds: "https" (default) or "http".' },
  endpoint_provider: { type: 'value', valid: ['callable'], doc: 'A function receiving {service, region, scheme} and returning null or {endpoint} (the endpoint URI).' },
  endpoint_discovery: { type: 'value', valid: ['array', 'bool', 'callable'], default: { enabled: false, cache_limit: 1000 }, doc: 'Endpoint discovery: {enabled (default false), cache_limit (default 1000)}. Step Functions has no operation that uses it.' },
  disable_host_prefix_injection: { type: 'config', valid: ['bool'], default: false, doc: 'When true, the host prefixes of the model (e.g. "sync-" for StartSyncExecution) are not prepended to the endpoint\'s host.' },
  api_provider: { type: 'value', valid: ['callable'], doc: 'A function (type: "api" | "paginator" | "waiter", service, version) returning the service description data, or null.' },
  handler: { type: 'value', valid: ['callable'], doc: 'The terminal handler: (command, request) => Promise<Result>, rejecting with a WorkflowServiceException. Default: the HTTP handler wrapped to parse answers.' },
  http_handler: { type: 'value', valid: ['callable'], doc: 'A function (request, httpOptions) => Promise<{statusCode, headers, body}>; supersedes handler.' },
  http: { type: 'config', valid: ['array'], default: {}, doc: 'HTTP options applied to every request (delay, timeout, connect_timeout, verify...); a command\'s @http wins.' },
  retries: { type: 'value', valid: ['int', 'array', 'callable'], doc: 'An integer: legacy mode with that many retries (0 disables retries); {mode: legacy|standard|adaptive, max_attempts}; unset: AWS_RETRY_MODE / AWS_MAX_ATTEMPTS or the shared config, else legacy.' },
  signature_provider: { type: 'value', valid: ['callable'], doc: 'A function (version, service, region) returning a signer or null.' },
  signature_version: { type: 'config', valid: ['string'], default: 'v4', doc: 'The signature version (v4, anonymous); wins over the operation\'s own.' },
  validate: { type: 'value', valid: ['bool', 'array'], default: true, doc: 'Client-side validation of parameters against the model: true (required, min), an array of the checks to run (required, min, max, pattern), or false.' },
  idempotency_auto_fill: { type: 'value', valid: ['bool', 'callable'], default: true, doc: 'Fill members with the idempotency-token trait with a UUID v4 when not given (crypto.randomBytes, or the given function (n) => bytes).' },
  account_id_endpoint_mode: { type: 'config', valid: ['string'], default: 'preferred', doc: 'preferred: warn when the credentials carry no accountId; required: throw; disabled: skip the check.' },
  ua_append: { type: 'value', valid: ['string', 'array'], default: [], doc: 'Values appended to the User-Agent header.' },
  app_id: { type: 'config', valid: ['string'], doc: 'Application id appended to the User-Agent header as app/<id> (also AWS_SDK_UA_APP_ID or the profile\'s sdk_ua_app_id).' },
  csm: { type: 'value', valid: ['array', 'bool', 'callable'], default: false, doc: 'Client-side monitoring: {enabled (false), host (127.0.0.1), port (31000), client_id}; records are sent over UDP.' },
  debug: { type: 'value', valid: ['bool', 'array'], default: false, doc: 'true or {logfn, stream_size, scrub_auth (true), http}: trace each step of every command.' },
  stats: { type: 'value', valid: ['bool', 'array'], default: false, doc: 'true or {retries, http, timer}: add transfer statistics to results and errors.' },
};

/** PHP's describe_type wording: `string(3) "abc"`, `int(1)`, `bool(true)`, `array(2)`, `callable`. */
export function describeType(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return `string(${Buffer.byteLength(value)}) "${value.length > 30 ? `${value.slice(0, 27)}...` : value}"`;
  if (typeof value === 'number') return Number.isInteger(value) ? `int(${value})` : `float(${value})`;
  if (typeof value === 'boolean') return `bool(${value})`;
  if (Array.isArray(value)) return `array(${value.length})`;
  if (typeof value === 'function') return 'callable';
  if (typeof value === 'object') {
    const ctor = (value as object).constructor;
    return ctor && ctor !== Object ? `object(${ctor.name})` : `array(${Object.keys(value as object).length})`;
  }
  return typeof value;
}

function isPlain(v: unknown): boolean {
  if (Array.isArray(v)) return true;
  if (v === null || typeof v !== 'object') return false;
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
}

function matches(v: unknown, t: ValidType): boolean {
  switch (t) {
    case 'string':
      return typeof v === 'string';
    case 'bool':
      return typeof v === 'boolean';
    case 'int':
      return typeof v === 'number' && Number.isInteger(v);
    case 'array':
      return isPlain(v);
    case 'callable':
      return typeof v === 'function';
    case 'Credentials':
      return v instanceof Credentials;
    case 'Token':
      return v instanceof Token;
  }
}

function help(name: string, spec: ArgumentSpec): string {
  return `${name}: (${spec.valid.join('|')})\n\n  ${spec.doc}`;
}

/** Throws when a required option is unset or a value has the wrong type; returns the value (undefined = unset). */
export function checkArgument(name: string, value: unknown): unknown {
  const spec = ARGUMENTS[name];
  if (value === undefined || value === null) {
    if (spec.required) throw new InvalidArgumentError(`Missing required client configuration options: \n\n${help(name, spec)}`);
    return undefined;
  }
  if (!spec.valid.some((t) => matches(value, t))) {
    throw new InvalidArgumentError(`Invalid configuration value provided for "${name}". Expected ${spec.valid.join('|')}, but got ${describeType(value)}\n\n${help(name, spec)}`);
  }
  return value;
}

/** The table as data (`WorkflowClient.getArguments()`). */
export function argumentsTable(): Record<string, ArgumentSpec> {
  return JSON.parse(JSON.stringify(ARGUMENTS)) as Record<string, ArgumentSpec>;
}

const HOST_LABEL = /^(?!-)[a-zA-Z0-9-]{1,63}(?<!-)$/;

export function checkRegion(region: string, hasEndpoint: boolean): void {
  if (region === '') throw new InvalidArgumentError(`Missing required client configuration options: \n\n${help('region', ARGUMENTS.region)}`);
  if (!hasEndpoint && !HOST_LABEL.test(region)) throw new InvalidArgumentError('Region must be a valid RFC host label.');
}

export const ACCOUNT_ID_ENDPOINT_MODES = ['disabled', 'required', 'preferred'] as const;
export type AccountIdEndpointMode = (typeof ACCOUNT_ID_ENDPOINT_MODES)[number];

export function checkAccountIdEndpointMode(value: string): AccountIdEndpointMode {
  if (!(ACCOUNT_ID_ENDPOINT_MODES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`The value provided for the config account_id_endpoint_mode option is invalid.Valid values are: ${ACCOUNT_ID_ENDPOINT_MODES.join(', ')}`);
  }
  return value as AccountIdEndpointMode;
}
