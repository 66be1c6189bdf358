/**
 * Query documents for differential tests (the compiled executor, direct resolver calls): every query operation in
 * schema/operations/, the bench's queries, the queries the tests and the bench send (string literals collected
 * from test/** and bench/**), and documents written here for fragments, aliases, directives, variables, nulls,
 * empty lists, abstract types and node ids; with a seeded organization to run them on as several viewers.
 * Literal logins, owners and repository names are replaced by the fixture's, so the collected queries find data.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DocumentNode, GraphQLSchema, Kind, OperationDefinitionNode, parse, specifiedRules, validate, visit } from 'graphql';
import type { DataSource } from 'typeorm';
import { toGlobalId } from '../../resolvers/common/global-id';
import type { RequestContext } from '../../src/context';
import { IdentityFixtures } from '../fixtures/identity';
import { SecretScanningFixtures } from '../fixtures/secret-scanning';
import { testContexts } from './context';

const ROOT = join(__dirname, '..', '..');

/** Every string literal in test/**.ts (without interpolation) that parses as a GraphQL document with a query. */
export function queriesFromTests(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir)) {
      const p = join(dir, e);
      if (statSync(p).isDirectory()) {
        if (e !== '__generated__') walk(p);
      } else if (p.endsWith('.ts')) files.push(p);
    }
  };
  walk(join(ROOT, 'test'));
  walk(join(ROOT, 'bench'));
  const out = new Set<string>();
  const literal = /`([^`$]*)`|'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"/g;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(literal)) {
      const s = (m[1] ?? m[2] ?? m[3] ?? '').trim();
      if (!/^(query\b|\{|fragment\b)/.test(s) || !/[a-z]/.test(s)) continue;
      const unescaped = m[1] !== undefined ? s : s.replace(/\\"/g, '"').replace(/\\'/g, "'").replace(/\\n/g, '\n');
      try {
        const doc = parse(unescaped);
        if (doc.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === 'query')) out.add(unescaped);
      } catch {
        // not GraphQL
      }
    }
  }
  return [...out];
}

/** The bench's documents, as its workloads build them (logins replaced below like every other literal). */
export const BENCH = [
  'query Viewer { viewer { id login } }',
  'query OrgRepos { organization(login: "x") { repositories(first: 100) { totalCount nodes { id databaseId name nameWithOwner isPrivate owner { login } } } } }',
  'query OrgSecretScanningDashboard { organization(login: "x") { secretScanningAlerts(first: 100, orderBy: { field: CREATED, direction: DESC }) { totalCount nodes { ' +
    'number state secretType secretTypeDisplayName createdAt repository { nameWithOwner } assignedTo { login } ' +
    'firstLocationDetected { path startLine endLine commitSha } } } } }',
];

/** Documents for what the others may not cover. */
export const WRITTEN = [
  '{ __typename a: __typename }',
  '{ viewer { __proto__: login } }',
  '{ viewer { login ...V v2: login } } fragment V on User { id databaseId login name }',
  '{ viewer { login @skip(if: true) name @include(if: false) id } }',
  'query($yes: Boolean!, $no: Boolean!) { viewer { login @include(if: $yes) name @include(if: $no) id @skip(if: $no) ...F @include(if: $yes) } } fragment F on User { databaseId }',
  'query($yes: Boolean!) { viewer { ... @skip(if: $yes) { login } ... on User @include(if: $yes) { id } } }',
  'query Org($login: String!) { organization(login: $login) { login viewerRole a: repositories(first: 2) { totalCount } b: repositories(last: 1) { nodes { name } } } }',
  'query Org($login: String!) { organization(login: $login) { repositories(first: 3) { nodes { name } nodes { isPrivate owner { __typename login } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }',
  'query Org($login: String!) { organization(login: $login) { repositories(first: 3) { edges { cursor node { ...R ... on Repository { id databaseId } } } } } } fragment R on Repository { name owner { ... on Organization { login viewerRole } ... on User { login name } } }',
  'query($login: String!) { organization(login: $login) { repositories(first: 0) { totalCount nodes { name } } } }',
  'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { nameWithOwner viewerPermission securitySettings { secretScanning pushProtection advancedSecurity delegatedAlertDismissal } settings { secretScanning } secretScanningAlerts(first: 5, filter: { state: RESOLVED }) { totalCount nodes { number state resolution resolvedAt resolvedBy { login } } } } }',
  'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { secretScanningAlerts(first: 4) { nodes { number locations(first: 3) { totalCount nodes { __typename ... on SecretScanningLocationCommit { path startLine blobSha } } } } } } }',
  'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { secretScanningAlerts(first: 0) { nodes { number } } empty: secretScanningAlerts(first: 5, filter: { secretType: ["no_such_type"] }) { totalCount nodes { number } } } }',
  'query($id: ID!) { node(id: $id) { __typename id ... on Repository { name } ... on User { login } ... on Organization { login } } }',
  'query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ...on Repository { nameWithOwner owner { login } } } }',
  'query($first: Int = 2) { viewer { login } organization(login: "x") { repositories(first: $first) { nodes { name } } } }',
];

export interface Case {
  label: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
}

/** Replace literal logins/owners/names (tests use their own fixtures) by the fixture's. */
export function normalize(text: string): DocumentNode {
  return visit(parse(text), {
    Argument(a) {
      if (a.value.kind !== Kind.STRING) return undefined;
      const value = a.name.value === 'login' || a.name.value === 'owner' ? 'difforg' : a.name.value === 'name' ? 'app' : undefined;
      return value === undefined ? undefined : { ...a, value: { kind: Kind.STRING, value } };
    },
  });
}

/** Every query operation of every collected document that validates against `schema`. */
export function queryCases(schema: GraphQLSchema, extra: string[] = []): Case[] {
  const texts = [
    readFileSync(join(ROOT, 'schema/operations/identity.graphql'), 'utf8'),
    readFileSync(join(ROOT, 'schema/operations/secret-scanning.graphql'), 'utf8'),
    ...BENCH,
    ...WRITTEN,
    ...extra,
    ...queriesFromTests(),
  ];
  const out: Case[] = [];
  for (const text of texts) {
    const document = normalize(text);
    if (validate(schema, document, specifiedRules).length) continue;
    for (const d of document.definitions) {
      if (d.kind !== Kind.OPERATION_DEFINITION || d.operation !== 'query') continue;
      if (document.definitions.filter((x) => x.kind === Kind.OPERATION_DEFINITION).length > 1 && !d.name) continue;
      out.push({ label: d.name?.value ?? text.slice(0, 80), document, operation: d });
    }
  }
  return out;
}

export interface DifferentialFixture {
  /** Tokens by viewer name (`anonymous`: none). */
  tokens: Record<string, string | undefined>;
  /** A fresh request context for a viewer. */
  context(viewer: string): Promise<RequestContext>;
  /** Values for the variables the collected documents use, by name. */
  vars: Record<string, unknown>;
  /** The values of `c`'s variables that `vars` has. */
  variablesFor(c: Case): Record<string, unknown>;
}

/** An organization with members of every role, repositories of every kind, alerts with every relation. */
export async function seedDifferentialFixture(ds: DataSource): Promise<DifferentialFixture> {
  const f = new IdentityFixtures(ds);
  const s = new SecretScanningFixtures(ds);
  const org = await f.org('difforg');
  const admin = await f.user('diffadmin', { name: 'Diff Admin' });
  const manager = await f.user('diffmanager');
  const member = await f.user('diffmember');
  const dev = await f.user('diffdev');
  await f.member(org, admin, 'admin');
  await f.member(org, manager, 'security_manager');
  await f.member(org, member, 'member');
  const repos = [
    await f.repo(org, { name: 'app', private: true, secretScanning: true, pushProtection: true, advancedSecurity: true }),
    await f.repo(org, { name: 'site', private: false, secretScanning: true }),
    await f.repo(org, { name: 'quiet', private: true }),
    await f.repo(admin, { name: 'mine', private: false, secretScanning: true }),
  ];
  await f.grant(repos[0], org, dev, 'write');
  await s.alerts(repos[0], 12, { assignees: [admin, dev], resolver: admin, bypasser: dev, allLocationTypesAt: 2 });
  await s.alerts(repos[1], 5, { assignees: [manager] });
  const tokens: Record<string, string | undefined> = {
    anonymous: undefined,
    admin: await f.classicToken(admin, ['repo', 'security_events', 'read:org', 'admin:org']),
    manager: await f.classicToken(manager, ['security_events', 'read:org']),
    member: await f.classicToken(member, ['public_repo']),
    fineGrained: await f.fineGrainedToken(dev, ['difforg/app'], { secret_scanning_alerts: 'read', contents: 'read' }),
  };
  const contexts = testContexts(ds, s.services);
  const ids = [toGlobalId('Repository', repos[0].id), toGlobalId('Organization', org.id), toGlobalId('User', admin.id), toGlobalId('Repository', repos[2].id)];
  const vars: Record<string, unknown> = { login: 'difforg', owner: 'difforg', name: 'app', s: 'difforg', first: 3, last: 2, n: 1, number: 1, id: ids[0], ids, yes: true, no: false };
  return {
    tokens,
    context: (viewer) => contexts.as(tokens[viewer]),
    vars,
    variablesFor(c) {
      const out: Record<string, unknown> = {};
      for (const v of c.operation.variableDefinitions ?? []) if (v.variable.name.value in vars) out[v.variable.name.value] = vars[v.variable.name.value];
      return out;
    },
  };
}
