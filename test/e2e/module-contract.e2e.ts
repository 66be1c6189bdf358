/**
 * The module contract holds (issue 21 §3): a small domain from test/fixtures/notes-module (one entity and its
 * migrations, one query, one REST row, an OpenAPI document, a start/close hook, a metric) is served next to the
 * gateway's modules by handing the list to createApp, without editing any file of the gateway. Its REST row and
 * root field get the fuzz suite's generated cases (valid, one bad part, random, HTTP-level faults) and answers
 * pass the same oracle. Both databases.
 */
import fc from 'fast-check';
import { contextFor } from '../../src/context';
import { getSchema } from '../../src/graphql/schema';
import { MODULES } from '../../src/modules';
import { withGeneratedRoutes } from '../../src/rest/register';
import { routesOf } from '../../src/rest/routes';
import { FixtureNoteService, notesLifecycle, notesModule } from '../fixtures/notes-module/notes.module';
import { gql, startTestApp, TestApp } from '../helpers/app';
import { testDialect } from '../helpers/db';
import { describeCase, FuzzCase } from '../helpers/fuzz/case';
import { FuzzFixtures, seedFuzzFixtures } from '../helpers/fuzz/fixtures';
import { gqlOneBad, gqlRandom, gqlValid, rootFields } from '../helpers/fuzz/graphql';
import { FuzzClient } from '../helpers/fuzz/http';
import { checkResponse } from '../helpers/fuzz/oracle';
import { restOneBad, restRandom, restValid } from '../helpers/fuzz/rest';
import { FrameworkFault, withFault } from '../helpers/fuzz/transport';

const SEED = 20261128;
const MODULES_WITH_NOTES = [...MODULES, notesModule];

describe(`a module from test/fixtures, served without editing the gateway (${testDialect()})`, () => {
  let t: TestApp;
  let fx: FuzzFixtures;
  let noteId: number;

  beforeAll(async () => {
    t = await startTestApp({ modules: MODULES_WITH_NOTES, env: { LOG_LEVEL: 'warn', REQUEST_TIMEOUT_MS: '4000', HEADERS_TIMEOUT_MS: '1500' } });
    fx = await seedFuzzFixtures(t);
    const notes = (t.app.deps.services as unknown as { fixtureNotes: FixtureNoteService }).fixtureNotes;
    noteId = (await notes.add(contextFor(t.app.deps, 'seed'), 'alice', 'hello from a module')).id;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('started its background hook once', () => {
    expect(notesLifecycle.started).toBe(1);
  });

  it('answers its query over GraphQL, next to the gateway’s own fields', async () => {
    const r = await gql(t.url, `query($id: Int!) { fixtureNote(id: $id) { id text } viewer { login } }`, { id: noteId }, fx.auths[0].header!.slice('Bearer '.length));
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data).toEqual({ fixtureNote: { id: noteId, text: 'hello from a module' }, viewer: { login: fx.auths[0].name } });
    const missing = await gql(t.url, `{ fixtureNote(id: 999999) { id } }`);
    expect(missing.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('serves its REST row in its family’s style, and counts it in its metric', async () => {
    const ok = await fetch(`${t.url}/fixture-notes/${noteId}`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ id: noteId, text: 'hello from a module' });
    const missing = await fetch(`${t.url}/fixture-notes/999999`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ message: 'Not Found', status: '404' });
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toMatch(/^fixture_notes_requests_total [1-9]\d*$/m);
  });

  it('publishes its OpenAPI document, generated from its row', async () => {
    const res = await fetch(`${t.url}/openapi/fixture-notes.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, Record<string, { operationId: string }>>; components: { schemas: Record<string, unknown> } };
    expect(Object.keys(doc.paths)).toEqual(['/fixture-notes/{note_id}']);
    expect(doc.paths['/fixture-notes/{note_id}'].get.operationId).toBe('fixture-notes/get');
    expect(doc.components.schemas['fixture-note']).toBeDefined();
  });

  it(
    'its row and field pass the fuzz oracle: generated valid, one-bad and random cases, and HTTP-level faults',
    async () => {
      const schema = await getSchema(MODULES_WITH_NOTES);
      const rows = withGeneratedRoutes(routesOf([notesModule]));
      const roots = rootFields(schema).filter((r) => r.field.name === 'fixtureNote');
      expect(rows).toHaveLength(1);
      expect(roots).toHaveLength(1);
      const cases: FuzzCase[] = [];
      for (const [i, route] of rows.entries()) {
        for (const arb of [restValid(route, fx), restOneBad(route, fx), restRandom(route, fx)]) cases.push(...fc.sample(arb, { numRuns: 20, seed: SEED + i }));
        for (const fault of ['headers-too-large', 'stalled-headers'] as FrameworkFault[]) cases.push(withFault(fc.sample(restValid(route, fx), { numRuns: 1, seed: SEED })[0], fault));
      }
      for (const root of roots) {
        for (const arb of [gqlValid(root, schema, fx), gqlOneBad(root, schema, fx), gqlRandom(root, schema, fx)]) cases.push(...fc.sample(arb, { numRuns: 20, seed: SEED }));
      }
      // A valid id now and then: valid cases reach the service (2xx), not only its 404.
      cases.push(...fc.sample(restValid(rows[0], fx), { numRuns: 1, seed: SEED }).map((c) => ({ ...c, request: { ...c.request, target: `/fixture-notes/${noteId}` } })));
      const client = new FuzzClient(t.url, 8);
      const failures: string[] = [];
      let served = 0;
      try {
        for (const c of cases) {
          for (const auth of fx.auths) {
            const res = await client.send({ ...c.request, headers: { ...c.request.headers, ...(auth.header ? { authorization: auth.header } : {}) } });
            if (c.kind === 'rest' && res.status === 200) served++;
            for (const p of checkResponse(c, res)) failures.push(`${p.kind}: ${p.detail}\n${describeCase(c)}\nHTTP ${res.status} ${res.body.slice(0, 300)}`);
          }
        }
      } finally {
        client.close();
      }
      expect(failures).toEqual([]);
      expect(served).toBeGreaterThan(0);
      expect(t.logs.filter((l) => Number(l.level) >= 50)).toEqual([]);
    },
    240_000,
  );

  it('the gateway without the module does not know it', async () => {
    const plain = await startTestApp({});
    try {
      expect((await fetch(`${plain.url}/fixture-notes/1`)).status).toBe(404);
      expect((await fetch(`${plain.url}/openapi/fixture-notes.json`)).status).toBe(404);
      const r = await gql(plain.url, `{ fixtureNote(id: 1) { id } }`);
      expect(r.body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    } finally {
      await plain.close();
    }
  }, 60_000);
});

describe('closing the app', () => {
  it('runs the module’s close hook', async () => {
    const before = notesLifecycle.closed;
    const t = await startTestApp({ modules: MODULES_WITH_NOTES });
    await t.close();
    expect(notesLifecycle.closed).toBe(before + 1);
  }, 60_000);
});
