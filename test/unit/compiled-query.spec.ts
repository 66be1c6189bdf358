/**
 * The compiled executor (src/graphql/exec/compiled-query.ts) answers exactly what graphql-js' `execute` answers,
 * byte for byte once serialized, for every query document the project sends: the operations in
 * schema/operations/, the bench's queries, the queries the tests send (collected from test/**), and documents
 * written here for fragments, aliases, directives, variables, nulls, empty lists, abstract types and node ids.
 * Each runs as several viewers (org admin, security manager, plain member, fine-grained token, anonymous), each
 * time with a fresh request context for each executor. Whenever graphql-js answers with errors, the compiled
 * executor must give up (FALLBACK), so the request is answered by graphql-js (errors, paths, null bubbling).
 * Runs on SQLite and on PostgreSQL (DATABASE_URL).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  DocumentNode,
  execute,
  ExecutionResult,
  GraphQLSchema,
  Kind,
  OperationDefinitionNode,
  parse,
  specifiedRules,
  validate,
  visit,
} from 'graphql';
import { toGlobalId } from '../../resolvers/common/global-id';
import type { AccountEntity, RepositoryEntity } from '../../entities';
import { CompiledQuery, FALLBACK } from '../../src/graphql/exec/compiled-query';
import { getSchema } from '../../src/graphql/schema';
import type { RequestContext } from '../../src/context';
import { IdentityFixtures } from '../fixtures/identity';
import { SecretScanningFixtures } from '../fixtures/secret-scanning';
import { testContexts, TestContexts } from '../helpers/context';
import { openTestDatabase, TestDatabase } from '../helpers/db';

const ROOT = join(__dirname, '..', '..');

/** Every string literal in test/**.ts (without interpolation) that parses as a GraphQL document with a query. */
function queriesFromTests(): string[] {
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
const BENCH = [
  'query Viewer { viewer { id login } }',
  'query OrgRepos { organization(login: "x") { repositories(first: 100) { totalCount nodes { id databaseId name nameWithOwner isPrivate owner { login } } } } }',
  'query OrgSecretScanningDashboard { organization(login: "x") { secretScanningAlerts(first: 100, orderBy: { field: CREATED, direction: DESC }) { totalCount nodes { ' +
    'number state secretType secretTypeDisplayName createdAt repository { nameWithOwner } assignedTo { login } ' +
    'firstLocationDetected { path startLine endLine commitSha } } } } }',
];

/** Documents for what the others may not cover. */
const WRITTEN = [
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

interface Case {
  label: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
}

describe('compiled execution answers what graphql-js answers', () => {
  let db: TestDatabase;
  let schema: GraphQLSchema;
  let contexts: TestContexts;
  const tokens: Record<string, string | undefined> = { anonymous: undefined };
  let org: AccountEntity;
  let repos: RepositoryEntity[];
  let vars: Record<string, unknown>;

  beforeAll(async () => {
    db = await openTestDatabase();
    schema = await getSchema();
    const f = new IdentityFixtures(db.dataSource);
    const s = new SecretScanningFixtures(db.dataSource);
    org = await f.org('difforg');
    const admin = await f.user('diffadmin', { name: 'Diff Admin' });
    const manager = await f.user('diffmanager');
    const member = await f.user('diffmember');
    const dev = await f.user('diffdev');
    await f.member(org, admin, 'admin');
    await f.member(org, manager, 'security_manager');
    await f.member(org, member, 'member');
    repos = [
      await f.repo(org, { name: 'app', private: true, secretScanning: true, pushProtection: true, advancedSecurity: true }),
      await f.repo(org, { name: 'site', private: false, secretScanning: true }),
      await f.repo(org, { name: 'quiet', private: true }),
      await f.repo(admin, { name: 'mine', private: false, secretScanning: true }),
    ];
    await f.grant(repos[0], org, dev, 'write');
    await s.alerts(repos[0], 12, { assignees: [admin, dev], resolver: admin, bypasser: dev, allLocationTypesAt: 2 });
    await s.alerts(repos[1], 5, { assignees: [manager] });
    tokens.admin = await f.classicToken(admin, ['repo', 'security_events', 'read:org', 'admin:org']);
    tokens.manager = await f.classicToken(manager, ['security_events', 'read:org']);
    tokens.member = await f.classicToken(member, ['public_repo']);
    tokens.fineGrained = await f.fineGrainedToken(dev, ['difforg/app'], { secret_scanning_alerts: 'read', contents: 'read' });
    contexts = testContexts(db.dataSource, s.services);
    const ids = [toGlobalId('Repository', repos[0].id), toGlobalId('Organization', org.id), toGlobalId('User', admin.id), toGlobalId('Repository', repos[2].id)];
    vars = { login: 'difforg', owner: 'difforg', name: 'app', s: 'difforg', first: 3, last: 2, n: 1, number: 1, id: ids[0], ids, yes: true, no: false };
  });
  afterAll(() => db?.drop());

  /** Replace literal logins/owners/names (tests use their own fixtures) by this test's. */
  function normalize(text: string): DocumentNode {
    return visit(parse(text), {
      Argument(a) {
        if (a.value.kind !== Kind.STRING) return undefined;
        const value = a.name.value === 'login' || a.name.value === 'owner' ? 'difforg' : a.name.value === 'name' ? 'app' : undefined;
        return value === undefined ? undefined : { ...a, value: { kind: Kind.STRING, value } };
      },
    });
  }

  function cases(): Case[] {
    const texts = [
      readFileSync(join(ROOT, 'schema/operations/identity.graphql'), 'utf8'),
      readFileSync(join(ROOT, 'schema/operations/secret-scanning.graphql'), 'utf8'),
      ...BENCH,
      ...WRITTEN,
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

  const ctx = (viewer: string): Promise<RequestContext> => contexts.as(tokens[viewer]);

  it('for every collected document, as every viewer', async () => {
    const all = cases();
    expect(all.length).toBeGreaterThan(50);
    let compiledAnswers = 0;
    let fallbacks = 0;
    for (const c of all) {
      const compiled = CompiledQuery.compile(schema, c.document, c.operation);
      // Left to graphql-js: introspection, and a `__proto__` response key (the compiled answer objects are plain objects).
      const leftToGraphqlJs = /__schema|__type\b|__proto__/.test(JSON.stringify(c.document));
      if (!compiled) {
        expect(leftToGraphqlJs).toBe(true);
        continue;
      }
      const variables: Record<string, unknown> = {};
      for (const v of c.operation.variableDefinitions ?? []) if (v.variable.name.value in vars) variables[v.variable.name.value] = vars[v.variable.name.value];
      for (const viewer of Object.keys(tokens)) {
        const expected = (await execute({
          schema,
          document: c.document,
          operationName: c.operation.name?.value,
          contextValue: await ctx(viewer),
          variableValues: variables,
        })) as ExecutionResult;
        const got = await compiled.run(await ctx(viewer), variables);
        const where = `${c.label} as ${viewer}`;
        if (expected.errors?.length) {
          expect({ where, got }).toEqual({ where, got: FALLBACK });
          fallbacks++;
        } else {
          expect({ where, got: got === FALLBACK ? 'FALLBACK' : JSON.stringify(got) }).toEqual({ where, got: JSON.stringify({ data: expected.data }) });
          compiledAnswers++;
        }
        // The second run of the same compiled document (cached plan) answers the same.
        if (got !== FALLBACK) expect(JSON.stringify(await compiled.run(await ctx(viewer), variables))).toBe(JSON.stringify(got));
      }
    }
    // Both outcomes are exercised, the answered one by far the most.
    expect(compiledAnswers).toBeGreaterThan(150);
    expect(fallbacks).toBeGreaterThan(10);
  });

  it('skip/include follow the variables of each request (one plan per combination)', async () => {
    const document = parse('query($a: Boolean!, $b: Boolean!) { viewer { login @include(if: $a) id @skip(if: $b) } }');
    const compiled = CompiledQuery.compile(schema, document, document.definitions[0] as OperationDefinitionNode)!;
    for (const [a, b] of [[true, true], [false, false], [true, false], [false, true], [true, true]]) {
      const expected = await execute({ schema, document, contextValue: await ctx('admin'), variableValues: { a, b } });
      expect(JSON.stringify(await compiled.run(await ctx('admin'), { a, b }))).toBe(JSON.stringify({ data: expected.data }));
    }
  });

  it('gives up on variables that do not coerce, and on introspection', async () => {
    const document = parse('query($login: String!) { organization(login: $login) { login } }');
    const compiled = CompiledQuery.compile(schema, document, document.definitions[0] as OperationDefinitionNode)!;
    expect(compiled.run(await ctx('admin'), {})).toBe(FALLBACK);
    expect(compiled.run(await ctx('admin'), { login: 5 })).toBe(FALLBACK);
    const introspection = parse('{ __schema { queryType { name } } }');
    expect(CompiledQuery.compile(schema, introspection, introspection.definitions[0] as OperationDefinitionNode)).toBeNull();
  });
});
