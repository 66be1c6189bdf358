/**
 * Property-based fuzzing of every REST row (src/rest/routes.ts) and every root Query/Mutation field
 * (the GraphQL schema), generated from the route table and the schema themselves, so new routes and
 * fields are covered without editing this file. See test/helpers/fuzz/ for the generators and the oracle.
 *
 * Each case is a request built in one of three modes — valid (real values from the seeded demo),
 * one-bad (a valid request with exactly one parameter, header, body field, argument or input field
 * replaced by a hostile value) or random — or a transport tampering (Host, absolute-form target,
 * HTTP/1.0). Every row is also sent broken at the HTTP level (header fields too large, stalled headers or body, a
 * body over the limit): its 431/408/413 must come in the row's family's shape. Every case is sent with every demo token, anonymously, with an unknown and with a malformed
 * token, to one real server over a throwaway database (SQLite, or PostgreSQL when DATABASE_URL is set).
 * Every answer must pass test/helpers/fuzz/oracle.ts (no 5xx, no leak, the family's error shape, bounded
 * error bodies, nothing logged at error level); afterwards /healthz still answers.
 *
 *   FUZZ_SEED=<n>       replay a run (the seed is printed; default fixed)
 *   FUZZ_RUNS=<n>       number of cases (default 3000); e.g. FUZZ_RUNS=50000 for a long local run
 *   FUZZ_PATH=<path>    with FUZZ_SEED: replay the shrunk counterexample fast-check printed
 *   FUZZ_COLLECT=1      do not stop at the first failure: run every case, then report every distinct
 *                       failure (grouped by target, bad part and problem) with one example each
 *   FUZZ_DUMP=<file>    with FUZZ_COLLECT: also write those examples (full requests) as JSON
 */
import fc from 'fast-check';
import { getSchema } from '../../src/graphql/schema';
import { REST_ROUTES } from '../../src/rest/routes';
import { startTestApp, TestApp } from '../helpers/app';
import { testDialect } from '../helpers/db';
import { describeCase, FuzzCase, shorten } from '../helpers/fuzz/case';
import { FuzzFixtures, seedFuzzFixtures } from '../helpers/fuzz/fixtures';
import { gqlOneBad, gqlRandom, gqlValid, rootFields } from '../helpers/fuzz/graphql';
import { FuzzClient, WireResponse } from '../helpers/fuzz/http';
import { checkResponse, messageShape, Problem } from '../helpers/fuzz/oracle';
import { restOneBad, restRandom, restValid, routeLabel } from '../helpers/fuzz/rest';
import { sigV4Headers } from '../helpers/fuzz/sign';
import { FrameworkFault, transportCase, withFault } from '../helpers/fuzz/transport';

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20260310;
const RUNS = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : 3000;
const PATH = process.env.FUZZ_PATH || undefined;
const COLLECT = process.env.FUZZ_COLLECT === '1';
/** Valid cases per calendar and workflow row in the coverage sweep. */
const SWEEP_CASES = 8;
/** Generous: the default run takes well under a minute per database. */
const TIMEOUT_MS = Math.max(240_000, RUNS * 200);

interface Failure {
  key: string;
  text: string;
  auth: string;
  request: FuzzCase['request'];
}

describe(`fuzz (${testDialect()}): REST route table and GraphQL schema`, () => {
  let t: TestApp;
  let fx: FuzzFixtures;
  let client: FuzzClient;
  let seq = 0;

  beforeAll(async () => {
    // Short receive timeouts: the HTTP-level cases stall headers or a body and wait for the 408.
    // GetActivityTask polls answer empty after a second (the fixtures schedule no activity task).
    t = await startTestApp({ env: { LOG_LEVEL: 'warn', REQUEST_TIMEOUT_MS: '4000', HEADERS_TIMEOUT_MS: '1500', WORKFLOW_ACTIVITY_POLL_SECONDS: '1' } });
    fx = await seedFuzzFixtures(t);
    client = new FuzzClient(t.url, 16);
    // Seeding the demo (every domain) takes a while on PostgreSQL on a busy machine.
  }, 120_000);
  afterAll(async () => {
    client?.close();
    await t?.close();
  });

  /** Send the case with every credential; returns the failures (empty when every answer passes). */
  /** Answers by case kind, mode and status class (printed: shows the valid cases do reach the services). */
  const tally = new Map<string, number>();
  /** 2xx answers per REST row (`METHOD /path`): every calendar and workflow operation must be reached. */
  const served = new Map<string, number>();

  /**
   * The server's error-level log lines by request id, indexed as they come (t.logs only grows): one pass over the
   * log in all, where a filter of the whole log per request grew with the log.
   */
  const errorsByRequest = new Map<string, Array<Record<string, unknown>>>();
  let indexed = 0;
  function loggedErrors(requestId: string): Array<Record<string, unknown>> {
    for (; indexed < t.logs.length; indexed++) {
      const l = t.logs[indexed];
      if (typeof l.requestId !== 'string' || !(Number(l.level) >= 50)) continue;
      const mine = errorsByRequest.get(l.requestId);
      if (mine) mine.push(l);
      else errorsByRequest.set(l.requestId, [l]);
    }
    return errorsByRequest.get(requestId) ?? [];
  }

  async function run(c: FuzzCase): Promise<Failure[]> {
    const n = ++seq;
    if (n % 100 === 0) await fx.restoreSettings();
    const failures: Failure[] = [];
    await Promise.all(
      fx.auths.map(async (auth) => {
        const requestId = `fuzz-${n}-${auth.name}`;
        const header = auth.name === 'bad-token' ? fx.badTokens[n % fx.badTokens.length] : auth.header;
        let headers: Record<string, string> = { ...c.request.headers, 'x-request-id': requestId, ...(header ? { authorization: header } : {}) };
        // A family that authenticates by request signature (AWS JSON: SigV4) gets the case signed with the
        // credential's access key; the bad credential alternates a bad token with a signature by a wrong secret.
        if (c.oracle === 'aws' || c.request.headers['x-amz-target'] !== undefined) {
          const key = auth.name === 'bad-token' && n % 2 === 0 ? { ...fx.auths[0].accessKey!, secretAccessKey: 'wrong-secret' } : auth.accessKey;
          if (key) headers = { ...headers, ...(await sigV4Headers(c.request, key, new URL(t.url).host)) };
        }
        let res: WireResponse;
        const problems: Problem[] = [];
        try {
          res = await client.send({ ...c.request, headers });
          problems.push(...checkResponse(c, res));
          const k = c.request.framework
            ? `framework(${c.oracle}):${res.status}`
            : `${c.kind}${c.kind === 'rest' ? `(${c.oracle})` : ''}:${c.mode}:${String(res.status).slice(0, 1)}xx`;
          tally.set(k, (tally.get(k) ?? 0) + 1);
          if (c.kind === 'rest' && res.status >= 200 && res.status < 300) served.set(c.target, (served.get(c.target) ?? 0) + 1);
        } catch (e) {
          res = { status: 0, headers: {}, body: '', size: 0, ms: 0 };
          problems.push({ kind: 'no answer', detail: (e as Error).message });
        }
        const logged = loggedErrors(requestId);
        for (const l of logged) {
          const reason = String((l.err as { message?: string } | undefined)?.message ?? '');
          problems.push({ kind: 'logged error', detail: shorten(`${String(l.msg)} ${JSON.stringify(reason)}`, 300), sig: messageShape(reason) });
          // A 5xx groups by the reason the server logged for it.
          for (const p of problems) if (p.kind.startsWith('status 5') && !p.sig) p.sig = messageShape(reason);
        }
        for (const p of problems) {
          failures.push({
            auth: auth.name,
            request: c.request,
            key: `${p.kind}${p.sig ? ` (${p.sig})` : ''} | ${c.kind} ${c.target}${c.bad ? ` | bad ${c.bad.replace(/\[\d+\]/g, '[]')}` : ''}`,
            text:
              `${p.kind}: ${p.detail}\n` +
              `credential: ${auth.name}${auth.name === 'bad-token' ? ` (${shorten(header ?? '', 40)})` : ''}\n` +
              `request:\n${describeCase(c)}\n` +
              `response: HTTP ${res.status} ${String(res.headers['content-type'] ?? '')} (${res.size} bytes)\n${shorten(res.body, 800)}`,
          });
        }
      }),
    );
    return failures;
  }

  it(
    'every calendar and workflow operation is served: valid cases of each row reach its service (2xx) with real values',
    async () => {
      // Reads and updates before deletes: a deleted fixture serves no later row.
      // (A trashed post's slug changes, as in WordPress: deletes by slug go before deletes by id.)
      const rank = (r: (typeof REST_ROUTES)[number]) => (r.method === 'DELETE' || /\.(Delete|Stop)/.test(r.operation ?? '') ? (r.path.includes('by-slug') ? 1 : 2) : 0);
      const rows = REST_ROUTES.filter((r) => (r.family === 'wordpress' || r.family === 'aws')).sort((a, b) => rank(a) - rank(b));
      const failures: Failure[] = [];
      for (const [i, route] of rows.entries()) {
        // A seed per row: rows sharing a generator (the same operation on two paths) pick different values.
        for (const c of fc.sample(restValid(route, fx), { numRuns: SWEEP_CASES, seed: SEED + i })) {
          failures.push(...(await run(c)));
        }
      }
      expect(failures.map((f) => f.text)).toEqual([]);
      const never = rows.map(routeLabel).filter((l) => !served.has(l));
      expect(never).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "HTTP-level failures on every row answer in the row's family's shape: 431, 408 (stalled headers or body), 413",
    async () => {
      const faults: FrameworkFault[] = ['headers-too-large', 'stalled-headers', 'stalled-body', 'body-too-large'];
      const failures: Failure[] = [];
      for (const fault of faults) {
        // A stalled or oversized body only where the row reads one (a GET is answered without its body).
        const rows = fault === 'stalled-body' || fault === 'body-too-large' ? REST_ROUTES.filter((r) => r.method !== 'GET') : REST_ROUTES;
        // Each fault on every row at once: the stalls run side by side.
        const cases = rows.map((route, i) => withFault(fc.sample(restValid(route, fx), { numRuns: 1, seed: SEED + i })[0], fault));
        for (const f of await Promise.all(cases.map((c) => run(c)))) failures.push(...f);
      }
      expect(failures.map((f) => f.text)).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    `${RUNS} cases (seed ${SEED}): no 5xx, no stack/SQL/path, the family's error shape, bounded errors, nothing logged`,
    async () => {
      const schema = await getSchema();
      const perTarget: fc.Arbitrary<FuzzCase>[] = [];
      const valid: fc.Arbitrary<FuzzCase>[] = [];
      for (const route of REST_ROUTES) {
        valid.push(restValid(route, fx));
        perTarget.push(fc.oneof({ arbitrary: restValid(route, fx), weight: 1 }, { arbitrary: restOneBad(route, fx), weight: 4 }, { arbitrary: restRandom(route, fx), weight: 2 }));
      }
      for (const root of rootFields(schema)) {
        valid.push(gqlValid(root, schema, fx));
        perTarget.push(fc.oneof({ arbitrary: gqlValid(root, schema, fx), weight: 1 }, { arbitrary: gqlOneBad(root, schema, fx), weight: 4 }, { arbitrary: gqlRandom(root, schema, fx), weight: 2 }));
      }
      const cases = fc.oneof(
        { arbitrary: fc.oneof(...perTarget), weight: 30 },
        { arbitrary: transportCase(fc.oneof(...valid)), weight: 1 },
      );
      // eslint-disable-next-line no-console
      console.log(
        `fuzz: seed ${SEED} (FUZZ_SEED), ${RUNS} cases (FUZZ_RUNS) x ${fx.auths.length} credentials, ` +
          `${REST_ROUTES.length} REST rows, ${rootFields(schema).length} root fields, ${testDialect()}`,
      );

      const started = Date.now();
      const found = new Map<string, { count: number; example: string; auth: string; request: FuzzCase['request'] }>();
      let sent = 0;
      await fc.assert(
        fc.asyncProperty(cases, async (c) => {
          const failures = await run(c);
          sent += fx.auths.length;
          if (COLLECT) {
            for (const f of failures) {
              const g = found.get(f.key);
              if (g) g.count += 1;
              else found.set(f.key, { count: 1, example: f.text, auth: f.auth, request: f.request });
            }
            return;
          }
          if (failures.length) {
            throw new Error(`${failures.length} problem(s); the first:\n${failures[0].text}\n(replay: FUZZ_SEED=${SEED} FUZZ_PATH=<the path fast-check prints with the shrunk case>)`);
          }
        }),
        { seed: SEED, numRuns: RUNS, path: PATH, endOnFailure: PATH !== undefined ? true : undefined, skipAllAfterTimeLimit: TIMEOUT_MS - 30_000 },
      );
      const seconds = (Date.now() - started) / 1000;
      // eslint-disable-next-line no-console
      console.log(`fuzz: rows never served (2xx): ${JSON.stringify(REST_ROUTES.map(routeLabel).filter((l) => !served.has(l)))}`);
      // eslint-disable-next-line no-console
      console.log(`fuzz: ${sent} requests in ${seconds.toFixed(1)} s (${Math.round(sent / seconds)}/s); answers ${JSON.stringify(Object.fromEntries([...tally].sort()))}`);

      if (COLLECT && process.env.FUZZ_DUMP) {
        // Every distinct failure with its full request, for replaying (the credential is named, not included).
        const dump = [...found.entries()].map(([key, g]) => ({ key, count: g.count, auth: g.auth, request: g.request }));
        require('node:fs').writeFileSync(process.env.FUZZ_DUMP, JSON.stringify(dump, null, 1));
      }
      if (COLLECT && found.size) {
        const report = [...found.entries()]
          .sort((a, b) => a[0].localeCompare(b[0]))
          .map(([key, g]) => `### ${key}  (x${g.count})\n${g.example}`)
          .join('\n\n');
        throw new Error(`fuzz (seed ${SEED}): ${found.size} distinct failures\n\n${report}`);
      }

      // The server is still healthy and logged no unexpected error for any request.
      const health = await fetch(`${t.url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      expect(health.status).toBe(200);
      const unexpected = t.logs.filter((l) => Number(l.level) >= 50 || /unexpected error/.test(String(l.msg)));
      expect(unexpected.map((l) => shorten(`${String(l.requestId)} ${String(l.msg)}`, 200))).toEqual([]);
    },
    TIMEOUT_MS,
  );
});
