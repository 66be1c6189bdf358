/**
 * REST cases generated from the route table (src/rest/routes.ts): for each row, its path parameters (from
 * the `{name}` segments), its query and header ParamSpecs and its request body schema become "slots".
 *  - valid:   every slot from real values (the seeded demo) or from its schema;
 *  - one-bad: a valid request with exactly one slot replaced by a hostile value;
 *  - random:  every slot absent, valid or hostile at random, plus unknown parameters, odd methods and
 *             content types.
 * A new row (or a new parameter) is covered without editing the test. Real values are looked up by
 * parameter name (owner, repo, org, alert_number, after, before, assignee, …); unknown names fall back to
 * the schema.
 */
import fc from 'fast-check';
import { FAMILIES } from '../../../src/rest/families';
import { pathTemplateParams } from '../../../src/rest/openapi';
import { SECRET_SCANNING_SCHEMAS } from '../../../src/rest/github/secret-scanning.presenters';
import type { ParamSpec, RestRoute } from '../../../src/rest/route-table';
import { FuzzCase, makeCase, toJsonText } from './case';
import type { Binding, FuzzFixtures } from './fixtures';
import { memoized } from './memo';
import {
  anyValue,
  FuzzValue,
  hugeString,
  nastyString,
  pointerKind,
  randomString,
  RawNumber,
  tamperedCursor,
  tamperedId,
} from './values';

type Schema = Record<string, unknown>;

/** Component schemas rows refer to with `$ref` (each family's named schemas). Unknown refs mean "anything". */
const COMPONENTS: Record<string, Schema> = { ...(SECRET_SCANNING_SCHEMAS as Record<string, Schema>) };

function resolve(schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; i < 10 && typeof s.$ref === 'string'; i++) {
    s = COMPONENTS[(s.$ref as string).replace('#/components/schemas/', '')] ?? {};
  }
  return s;
}

interface Slot {
  where: 'path' | 'query' | 'header' | 'body';
  name: string;
  required: boolean;
  schema: Schema;
}

/** A query value: one string, a repeated parameter, or the bare name without `=`. */
type QueryValue = string | string[] | { bare: true };
/** A path value: encoded as a URI component, or inserted verbatim (`raw`). */
type PathValue = string | { raw: string };

const BARE = { bare: true } as const;
const ABSENT = Symbol('absent');
type Maybe<T> = T | typeof ABSENT;

function slotsOf(route: RestRoute<any, any>): Slot[] {
  const specs = route.parameters ?? [];
  const slots: Slot[] = pathTemplateParams(route.path).map((name) => {
    const spec = specs.find((p) => p.in === 'path' && p.name === name);
    return { where: 'path' as const, name, required: true, schema: spec?.schema ?? { type: 'string' } };
  });
  for (const p of specs as ParamSpec[]) {
    if (p.in === 'query' || p.in === 'header') slots.push({ where: p.in, name: p.name, required: Boolean(p.required), schema: p.schema });
  }
  const body = resolve(route.requestBody);
  const props = (body.properties ?? {}) as Record<string, Schema>;
  const required = new Set((body.required as string[] | undefined) ?? []);
  for (const [name, schema] of Object.entries(props)) slots.push({ where: 'body', name, required: required.has(name), schema: resolve(schema) });
  // Headers every row reads whether it declares them or not (content negotiation, API version, caching).
  for (const name of ['Accept', 'X-GitHub-Api-Version', 'If-None-Match']) {
    if (!slots.some((x) => x.where === 'header' && x.name.toLowerCase() === name.toLowerCase())) {
      slots.push({ where: 'header', name, required: false, schema: name === 'Accept' ? { type: 'string', enum: ['application/vnd.github+json', 'application/json', '*/*'] } : name === 'X-GitHub-Api-Version' ? { type: 'string', enum: ['2026-03-10'] } : { type: 'string', example: '"x"' } });
    }
  }
  return slots;
}

// ---------------------------------------------------------------------------------------------------------
// Valid values.

const csvOf = (items: string[]) => fc.subarray(items, { minLength: 1, maxLength: 3 }).map((xs) => xs.join(','));

/** Real values by parameter name (REST and GraphQL share the names where they mean the same thing). */
export function realValue(name: string, b: Binding, fx: FuzzFixtures, collection?: string): fc.Arbitrary<FuzzValue> | undefined {
  const cal = (c: string) => fx.calendar[c];
  if (collection) {
    // Calendar fields the services check for form (URLs, zones, dates, existing authors and pages).
    switch (name) {
      case 'image':
      case 'website':
        return fc.constantFrom('https://example.com/a.png', 'https://example.org/');
      case 'email':
        return fc.constant('fuzz@example.com');
      case 'timezone':
        return fc.constantFrom('UTC', 'Europe/Copenhagen');
      case 'date':
      case 'date_utc':
        return fc.constant('2026-05-01 10:00:00');
      case 'starts_after':
      case 'ends_after':
        return fc.constant('2026-01-01');
      case 'starts_before':
      case 'ends_before':
        return fc.constant('2028-01-01');
      case 'strict_dates':
        return fc.constantFrom('true', 'false');
      case 'status':
        return fc.constant('publish');
      case 'author':
        return fc.constant(1);
      case 'page':
        return fc.constant(1);
      case 'per_page':
        return fc.integer({ min: 1, max: 50 });
      case 'post':
        return fc.constantFrom(...cal('events').ids);
      case 'exclude':
      case 'include':
        return cal(collection) ? fc.constantFrom(...cal(collection).ids) : undefined;
    }
  }
  switch (name) {
    // The calendar (WordPress family): the row's own collection for path ids and slugs, linked posts and terms
    // by their collection, dates the services accept.
    case 'id':
      return collection && cal(collection) ? fc.constantFrom(...cal(collection).ids.map(String)) : undefined;
    case 'slug':
      return collection && cal(collection) ? fc.constantFrom(...cal(collection).slugs) : undefined;
    case 'venue':
    case 'organizer':
      // On its own collection's rows the name is the post's title, a string.
      return collection === 'events' ? fc.constantFrom(...cal(`${name}s`).ids) : undefined;
    case 'event':
    case 'include':
    case 'post_parent':
      return fc.constantFrom(...cal('events').ids);
    case 'categories':
    case 'tags':
      return fc.constantFrom(...cal(name).ids, ...cal(name).slugs);
    case 'start_date':
      return fc.constantFrom('2026-06-01 10:00:00', '2026-01-01', 'now');
    case 'end_date':
      return fc.constantFrom('2027-06-01 12:00:00', '2027-12-31');
    case 'owner':
      return fc.constant(b.owner);
    case 'repo':
      return fc.constant(b.repo);
    case 'org':
      return fc.constant(b.org);
    case 'alert_number':
      return fc.constant(String(b.number ?? 1));
    case 'after':
    case 'before':
      return fc.constantFrom('', ...fx.restCursors);
    case 'assignee':
      return fc.constantFrom(...fx.logins, '*', 'none');
    case 'secret_type':
    case 'exclude_secret_types':
      return csvOf(fx.secretTypes);
    case 'providers':
    case 'exclude_providers':
      return fx.providers.length ? csvOf(fx.providers) : undefined;
    case 'If-None-Match':
      return fc.constantFrom(...fx.etags, '*', 'W/"x"');
    case 'placeholder_id':
      return fx.placeholderIds.length ? fc.constantFrom(...fx.placeholderIds) : undefined;
    case 'resolution_comment':
      return fc.constantFrom('fuzz', 'Sample token in the docs', null);
    // The workflow service (AWS JSON members).
    case 'stateMachineArn':
      return fc.constantFrom(...fx.workflow.stateMachineArns);
    case 'executionArn':
      return fc.constantFrom(...fx.workflow.executionArns);
    case 'mapRunArn':
      return fc.constantFrom(...fx.workflow.mapRunArns);
    case 'nextToken':
      return fc.constantFrom(...fx.workflow.nextTokens);
    case 'stateMachineVersionArn':
      return fc.constantFrom(...fx.workflow.versionArns);
    case 'stateMachineAliasArn':
      return fc.constantFrom(...fx.workflow.aliasArns);
    case 'routingConfiguration':
      return fc.constantFrom(
        [{ stateMachineVersionArn: fx.workflow.versionArns[0], weight: 100 }],
        fx.workflow.versionArns.slice(0, 2).map((v) => ({ stateMachineVersionArn: v, weight: 50 })),
      );
    case 'roleArn':
      return fc.constantFrom('arn:aws:iam::000000000000:role/fuzz', 'arn:aws:iam::123456789012:role/service-role/other');
    case 'activityArn':
      return fc.constantFrom(...fx.workflow.activityArns);
    case 'taskToken':
      return fc.constantFrom(...fx.workflow.taskTokens.success, ...fx.workflow.taskTokens.failure, ...fx.workflow.taskTokens.heartbeat);
    case 'output':
      return fc.constantFrom('{}', '{"approved":true}', '[1,2]', '"done"');
    case 'definition':
      return fc.constantFrom(
        '{"StartAt":"A","States":{"A":{"Type":"Pass","End":true}}}',
        '{"StartAt":"W","States":{"W":{"Type":"Wait","Seconds":1,"Next":"T"},"T":{"Type":"Task","Resource":"echo","End":true}}}',
      );
    case 'input':
      return fc.constantFrom('{}', '{"a":[1,2,3]}', '"text"', '[]');
    default:
      return undefined;
  }
}

/** Workflow members whose names other families use for something else (the calendar's `tags`). */
function awsValue(name: string, fx: FuzzFixtures): fc.Arbitrary<FuzzValue> | undefined {
  switch (name) {
    case 'tags':
      return fc.array(fc.record({ key: fc.constantFrom('team', 'env', 'cost center', 'a/b=c+d-e@f.g:h_i'), value: fc.constantFrom('', 'x', 'payments') }), { maxLength: 3 });
    case 'tagKeys':
      return fc.array(fc.constantFrom('team', 'env', 'absent'), { maxLength: 3 });
    case 'resourceArn':
      return fc.constantFrom(...fx.workflow.stateMachineArns, ...fx.workflow.activityArns);
    case 'loggingConfiguration':
      return fc.constantFrom<FuzzValue>(
        { level: 'OFF' },
        { level: 'ERROR', includeExecutionData: false, destinations: [{ cloudWatchLogsLogGroup: { logGroupArn: 'arn:aws:logs:us-east-1:000000000000:log-group:fuzz:*' } }] },
        { level: 'ALL', includeExecutionData: true, destinations: [{ cloudWatchLogsLogGroup: { logGroupArn: 'arn:aws:logs:eu-west-1:123456789012:log-group:/aws/vendedlogs/states/fuzz-Logs:*' } }] },
      );
    default:
      return undefined;
  }
}

/** A value matching a JSON schema (small and plain). */
export const schemaValue = memoized(function schemaValue(schema: Schema): fc.Arbitrary<FuzzValue> {
  const s = resolve(schema);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as FuzzValue[]));
  const nullable = s.nullable === true;
  let arb: fc.Arbitrary<FuzzValue>;
  switch (s.type) {
    case 'boolean':
      arb = fc.boolean();
      break;
    case 'integer':
    case 'number': {
      const min = typeof s.minimum === 'number' ? s.minimum : 0;
      const max = typeof s.maximum === 'number' ? s.maximum : min + 10;
      arb = fc.integer({ min, max });
      break;
    }
    case 'array':
      arb = fc.array(schemaValue((s.items as Schema) ?? {}), { maxLength: 3 });
      break;
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      arb = fc.record(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, schemaValue(v)])), {
        requiredKeys: (s.required as string[] | undefined) ?? [],
      }) as fc.Arbitrary<FuzzValue>;
      break;
    }
    default:
      if (typeof s.pattern === 'string') arb = fc.stringMatching(new RegExp(s.pattern as string));
      else if (typeof s.example === 'string') arb = fc.constant(s.example);
      else arb = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789_-'), minLength: 1, maxLength: 12 });
  }
  return nullable ? fc.oneof(arb, fc.constant(null)) : arb;
});

/**
 * Workflow rows whose valid value is used up by a 2xx: RedriveExecution takes stopped jobs (a redriven job runs
 * again), each SendTask* row its own tokens (a success or failure closes the task). The operation is served at two
 * paths: each path's row gets half of each pool, so the first row cannot use up the second's.
 */
function workflowRowValue(route: RestRoute<any, any>, name: string, fx: FuzzFixtures): fc.Arbitrary<FuzzValue> | undefined {
  const op = route.operation?.replace(/^AWSStepFunctions\./, '');
  const mine = (xs: string[]) => fc.constantFrom(...xs.filter((_, i) => i % 2 === (route.path === '/' ? 1 : 0)));
  if (op === 'RedriveExecution' && name === 'executionArn') return mine(fx.workflow.redrivableArns);
  if (op === 'TestState') return testStateValue(name);
  if (op === 'StartSyncExecution' && name === 'stateMachineArn') return mine(fx.workflow.expressArns);
  if (name !== 'taskToken') return undefined;
  if (op === 'SendTaskSuccess') return mine(fx.workflow.taskTokens.success);
  if (op === 'SendTaskFailure') return mine(fx.workflow.taskTokens.failure);
  if (op === 'SendTaskHeartbeat') return mine(fx.workflow.taskTokens.heartbeat);
  return undefined;
}

/**
 * TestState's members fit together: a single Task state (which runs with or without a mock), no stateName (that
 * needs a whole machine), no context or stateConfiguration (they need a mock, or a mocked error), no revealSecrets
 * (a site admin's).
 */
function testStateValue(name: string): fc.Arbitrary<FuzzValue> | undefined {
  switch (name) {
    case 'definition':
      return fc.constantFrom(
        '{"Type":"Task","Resource":"echo","End":true}',
        '{"Type":"Task","Resource":"echo","Parameters":{"v.$":"$"},"ResultPath":"$.r","Next":"B"}',
        '{"Type":"Task","QueryLanguage":"JSONata","Resource":"fail","Retry":[{"ErrorEquals":["TaskFailed"],"MaxAttempts":1}],"Catch":[{"ErrorEquals":["States.ALL"],"Next":"C"}],"Next":"B"}',
      );
    case 'mock':
      return fc.constantFrom<FuzzValue>({ result: '{"mocked":true}' }, { errorOutput: { error: 'Mocked', cause: 'fuzz' } }, { result: '[1]', fieldValidationMode: 'NONE' });
    case 'variables':
      return fc.constantFrom('{}', '{"x":1}');
    case 'stateName':
    case 'context':
    case 'stateConfiguration':
    case 'revealSecrets':
      return fc.constant(ABSENT as unknown as FuzzValue);
    default:
      return undefined;
  }
}

const asText = (v: FuzzValue): string => (typeof v === 'string' ? v : v === null ? '' : typeof v === 'object' ? toJsonText(v) : String(v));

/** The calendar collection a row serves (`/calendar/events/v1/<collection>…`), if any. */
function collectionOf(route: RestRoute<any, any>): string | undefined {
  if (route.path.startsWith('/calendar/events.ics')) return 'events';
  return /^\/calendar\/events\/v1\/([a-z]+)/.exec(route.path)?.[1];
}

const validSlot = memoized(function validSlot(slot: Slot, b: Binding, fx: FuzzFixtures, route?: RestRoute<any, any>): fc.Arbitrary<FuzzValue> {
  // A calendar row's own id and slug are real in its path; a body or query `slug` is a new one (an existing
  // slug there renames another post's or collides).
  const own = slot.where !== 'path' && (slot.name === 'slug' || slot.name === 'id');
  const real =
    (route && workflowRowValue(route, slot.name, fx)) ??
    (own ? undefined : ((route?.family === 'aws' ? awsValue(slot.name, fx) : undefined) ?? realValue(slot.name, b, fx, route && collectionOf(route))));
  const arb = real ?? schemaValue(slot.schema);
  return slot.where === 'body' ? arb : arb.map(asText);
});

// ---------------------------------------------------------------------------------------------------------
// Hostile values.

/** Strings that a URL or header can carry (long, not huge: a 16 KB request line is refused by node itself). */
export const badStrings = memoized(function badStrings(fx: FuzzFixtures): fc.Arbitrary<string> {
  const realAll = [...fx.logins, ...fx.restCursors, ...fx.gqlCursors, ...fx.nodeIds, ...fx.etags, ...fx.placeholderIds, ...fx.secretTypes];
  return fc.oneof(
    { arbitrary: nastyString, weight: 4 },
    { arbitrary: randomString, weight: 3 },
    { arbitrary: tamperedCursor([...fx.restCursors, ...fx.gqlCursors]), weight: 3 },
    { arbitrary: tamperedId(fx.nodeIds), weight: 1 },
    { arbitrary: fc.constantFrom(...realAll), weight: 1 },
    { arbitrary: fc.integer({ min: 500, max: 5000 }).map((n) => 'x'.repeat(n)), weight: 1 },
  );
});

/** Bad strings for one slot: cursor and id slots get their tampered real values half of the time. */
function badFor(name: string, fx: FuzzFixtures): fc.Arbitrary<string> {
  const kind = pointerKind(name);
  if (kind === 'cursor') return fc.oneof(tamperedCursor(fx.restCursors), badStrings(fx));
  if (name === 'nextToken') return fc.oneof(tamperedCursor(fx.workflow.nextTokens), badStrings(fx));
  if (kind === 'id') return fc.oneof(fc.constantFrom(...NUMBERISH), badStrings(fx));
  return badStrings(fx);
}

const NUMBERISH = ['0', '-1', '1.5', '1e400', '1e3', '99999999999', '2147483648', '2147483647', '9007199254740993', '0x1', '1_0', ' 1', '+1', '01', 'NaN', 'Infinity', '١'];

function badQuery(fx: FuzzFixtures, name = ''): fc.Arbitrary<QueryValue> {
  return fc.oneof(
    { arbitrary: badFor(name, fx), weight: 8 },
    { arbitrary: fc.array(badStrings(fx), { minLength: 2, maxLength: 3 }), weight: 1 },
    { arbitrary: fc.constant(BARE), weight: 1 },
  );
}

function badPath(fx: FuzzFixtures, name: string): fc.Arbitrary<PathValue> {
  return fc.oneof(
    { arbitrary: badFor(name, fx), weight: 8 },
    { arbitrary: fc.constantFrom('%', '%zz', '%ff', '%c0%80', '%00', '..', '.', '%2e%2e', '%2F', ';', '@', '~', '!').map((raw) => ({ raw })), weight: 2 },
  );
}

/** Header values node can write (latin-1, no control characters). */
function badHeader(fx: FuzzFixtures): fc.Arbitrary<string> {
  return fc.oneof(badStrings(fx), fc.constantFrom(...fx.etags.map((e) => `W/${e}`), '"x", *', '*, *', '""', 'W/')).map((s) => s.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?'));
}

function badBodyValue(fx: FuzzFixtures): fc.Arbitrary<FuzzValue> {
  return fc.oneof(
    { arbitrary: anyValue, weight: 6 },
    { arbitrary: badStrings(fx), weight: 4 },
    { arbitrary: hugeString, weight: 1 },
    { arbitrary: fc.constantFrom<FuzzValue>(new RawNumber('1e400'), new RawNumber('-0'), new RawNumber('99999999999'), 1.5, [], {}, ['open'], { state: 'open' }), weight: 2 },
  );
}

/** A whole body that is not the documented object: other JSON, broken JSON, other media types. */
interface RawBody {
  text?: string;
  contentType?: string;
}
const rawBody: fc.Arbitrary<RawBody> = fc.record({
  text: fc.option(
    fc.oneof(
      fc.constantFrom('', 'null', '[]', '[{}]', '"x"', '1e400', '-0', 'true', '{', '{"a":', '{"state":}', '\u0000', '{"state":"open",}', "{'state':'open'}", '['.repeat(5000) + ']'.repeat(5000)),
      anyValue.map((v) => toJsonText(v)),
      hugeString.map((s) => JSON.stringify({ resolution_comment: s, state: 'resolved', resolution: 'wont_fix' })),
      fc.string({ unit: 'binary', maxLength: 40 }),
    ),
    { nil: undefined },
  ),
  contentType: fc.option(
    fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/vnd.github+json', ''),
    { nil: undefined },
  ),
});

// ---------------------------------------------------------------------------------------------------------
// Assembling requests.

interface Parts {
  method: string;
  path: Record<string, PathValue>;
  query: Array<[string, QueryValue]>;
  headers: Record<string, string>;
  body: Maybe<Record<string, FuzzValue>>;
  raw?: RawBody;
}

/** encodeURIComponent that survives lone surrogates (sent as U+FFFD, as any UTF-8 client would). */
export function enc(s: string): string {
  return encodeURIComponent(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
}

function assemble(route: RestRoute<any, any>, p: Parts): FuzzCase['request'] {
  const path = route.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const v = p.path[name];
    if (v === undefined) return '';
    return typeof v === 'string' ? enc(v) : v.raw;
  });
  const q: string[] = [];
  for (const [name, v] of p.query) {
    if (typeof v === 'object' && !Array.isArray(v)) q.push(enc(name));
    else for (const one of Array.isArray(v) ? v : [v]) q.push(`${enc(name)}=${enc(one)}`);
  }
  const headers: Record<string, string> = { accept: 'application/vnd.github+json', ...p.headers };
  // A row keyed by operation (RPC-style families such as AWS JSON) is reached through the family's operation header.
  const operationHeader = FAMILIES[route.family].operationHeader;
  if (route.operation && operationHeader && headers[operationHeader] === undefined) headers[operationHeader] = route.operation;
  let body: string | undefined;
  if (p.raw && (p.raw.text !== undefined || p.raw.contentType !== undefined)) {
    body = p.raw.text;
    if (p.raw.contentType !== undefined) headers['content-type'] = p.raw.contentType;
    else if (body !== undefined) headers['content-type'] = 'application/json';
  } else if (p.body !== ABSENT) {
    body = toJsonText(p.body);
    headers['content-type'] = 'application/json';
  }
  return { method: p.method, target: `${path}${q.length ? `?${q.join('&')}` : ''}`, headers, body };
}

function bindingsFor(route: RestRoute<any, any>, fx: FuzzFixtures): Binding[] {
  const needsAlert = pathTemplateParams(route.path).includes('alert_number');
  const matching = fx.bindings.filter((b) => (needsAlert ? b.number !== undefined : true));
  return matching.length ? matching : fx.bindings;
}

/** Valid parts for a route: every path slot, some query/header slots, a body with some fields. */
function validParts(route: RestRoute<any, any>, slots: Slot[], fx: FuzzFixtures): fc.Arbitrary<Parts> {
  // A body schema's `anyOf: [{required: [...]}, …]`: one alternative's fields are always sent.
  const alternatives = ((resolve(route.requestBody).anyOf as Array<{ required?: string[] }> | undefined) ?? []).map((a) => a.required ?? []);
  const partsOf = memoized((b: Binding, forced: string[]): fc.Arbitrary<Parts> => {
    const entries = slots.map((slot) => {
      const v = validSlot(slot, b, fx, route);
      const always = slot.required || slot.where === 'path' || (slot.where === 'body' && forced.includes(slot.name));
      const arb: fc.Arbitrary<Maybe<FuzzValue>> = always ? v : fc.oneof({ arbitrary: fc.constant(ABSENT), weight: 3 }, { arbitrary: v, weight: 1 });
      return arb;
    });
    const hasBody = route.requestBody !== undefined && route.method !== 'GET';
    return fc.tuple(...entries).map((values) => {
      const parts: Parts = { method: route.method, path: {}, query: [], headers: {}, body: hasBody ? {} : ABSENT };
      slots.forEach((slot, i) => put(parts, slot, values[i]));
      return parts;
    });
  });
  return fc.tuple(fc.constantFrom(...bindingsFor(route, fx)), fc.constantFrom<string[]>(...(alternatives.length ? alternatives : [[]]))).chain(([b, forced]) => partsOf(b, forced));
}

function put(parts: Parts, slot: Slot, v: Maybe<FuzzValue | QueryValue | PathValue>): void {
  if (v === ABSENT) return;
  switch (slot.where) {
    case 'path':
      parts.path[slot.name] = v as PathValue;
      return;
    case 'query':
      parts.query = parts.query.filter(([n]) => n !== slot.name);
      parts.query.push([slot.name, v as QueryValue]);
      return;
    case 'header':
      parts.headers[slot.name.toLowerCase()] = String(v);
      return;
    case 'body':
      if (parts.body === ABSENT) parts.body = {};
      (parts.body as Record<string, FuzzValue>)[slot.name] = v as FuzzValue;
  }
}

const badSlot = memoized(function badSlot(slot: Slot, fx: FuzzFixtures): fc.Arbitrary<Maybe<FuzzValue | QueryValue | PathValue>> {
  switch (slot.where) {
    case 'path':
      return badPath(fx, slot.name);
    case 'query':
      return badQuery(fx, slot.name);
    case 'header':
      return badHeader(fx);
    case 'body':
      // A required field may also be left out.
      return slot.required ? fc.oneof({ arbitrary: badBodyValue(fx), weight: 5 }, { arbitrary: fc.constant(ABSENT), weight: 1 }) : badBodyValue(fx);
  }
});

export function routeLabel(route: RestRoute<any, any>): string {
  return `${route.method} ${route.path}${route.operation ? ` ${route.operation}` : ''}`;
}

export function restOneBad(route: RestRoute<any, any>, fx: FuzzFixtures): fc.Arbitrary<FuzzCase> {
  const slots = slotsOf(route);
  const hasBody = route.requestBody !== undefined && route.method !== 'GET';
  const choices: Array<Slot | 'body'> = [...slots, ...(hasBody ? (['body'] as const) : [])];
  // Cursor and id slots are picked more often (weight 4).
  const choice = fc.oneof(...choices.map((c) => ({ arbitrary: fc.constant(c), weight: c !== 'body' && pointerKind(c.name) ? 4 : 1 })));
  return fc.tuple(validParts(route, slots, fx), choice).chain(([parts, choice]) => {
    if (choice === 'body') {
      return rawBody.map((raw) => makeCase({ kind: 'rest', mode: 'one-bad', target: routeLabel(route), bad: 'body', oracle: route.family, request: assemble(route, { ...parts, raw }) }));
    }
    return badSlot(choice, fx).map((v) => {
      const p: Parts = { ...parts, path: { ...parts.path }, query: [...parts.query], headers: { ...parts.headers }, body: parts.body === ABSENT ? ABSENT : { ...parts.body } };
      if (v === ABSENT && choice.where === 'body' && p.body !== ABSENT) delete p.body[choice.name];
      else put(p, choice, v);
      return makeCase({ kind: 'rest', mode: 'one-bad', target: routeLabel(route), bad: `${choice.where}.${choice.name}`, oracle: route.family, request: assemble(route, p) });
    });
  });
}

export function restValid(route: RestRoute<any, any>, fx: FuzzFixtures): fc.Arbitrary<FuzzCase> {
  const slots = slotsOf(route);
  return validParts(route, slots, fx).map((p) => makeCase({ kind: 'rest', mode: 'valid', target: routeLabel(route), oracle: route.family, request: assemble(route, p) }));
}

export function restRandom(route: RestRoute<any, any>, fx: FuzzFixtures): fc.Arbitrary<FuzzCase> {
  const slots = slotsOf(route);
  const casesOf = memoized((b: Binding): fc.Arbitrary<FuzzCase> => {
    const each = slots.map((slot) =>
      fc.oneof<fc.Arbitrary<Maybe<FuzzValue | QueryValue | PathValue>>[]>(
        fc.constant(slot.where === 'path' ? '' : ABSENT),
        validSlot(slot, b, fx, route),
        badSlot(slot, fx),
      ),
    );
    return fc
      .record({
        values: fc.tuple(...each),
        extra: fc.array(fc.tuple(fc.oneof(fc.constantFrom('page', 'per_page', 'after', 'x', 'q[]', '__proto__', ''), randomString), badQuery(fx)), { maxLength: 3 }),
        method: fc.oneof({ arbitrary: fc.constant(route.method), weight: 8 }, { arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'), weight: 1 }),
        raw: fc.option(rawBody, { nil: undefined, freq: 4 }),
      })
      .map(({ values, extra, method, raw }) => {
        const hasBody = route.requestBody !== undefined && method !== 'GET' && method !== 'HEAD';
        const parts: Parts = { method, path: {}, query: [], headers: {}, body: hasBody ? {} : ABSENT, raw: method === 'GET' || method === 'HEAD' ? undefined : raw };
        slots.forEach((slot, i) => put(parts, slot, values[i]));
        parts.query.push(...extra);
        return makeCase({ kind: 'rest', mode: 'random', target: routeLabel(route), oracle: route.family, request: assemble(route, parts) });
      });
  });
  return fc.constantFrom(...fx.bindings).chain((b) => casesOf(b));
}
