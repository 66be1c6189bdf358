/**
 * What a workload is. A domain adds a benchmark by writing one `Workload` (gateway request, the
 * hand-written baseline that serves the same data without GraphQL or the ORM, and a check that both
 * answer the same thing) and listing it in bench/workloads/index.ts.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { BaselineDb } from './baseline';
import type { SeedResult } from './seed';
import type { CalendarSeedResult } from './seed-calendar';
import type { SecretScanningSeedResult } from './seed-secret-scanning';

export type Dialect = 'sqlite' | 'postgres';

/** One HTTP request as autocannon sends it (path may carry a query string). */
export interface HttpRequestSpec {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Everything a workload may need to build its requests: the seeded data and the credentials. */
export interface BenchEnv {
  dialect: Dialect;
  seed: SeedResult;
  /** Classic token (repo, read:org) of an admin of the seeded organization. */
  adminToken: string;
  /** Secret scanning alerts of the organization; seeded only when a selected workload `needs` them. */
  secretScanning?: SecretScanningSeedResult;
  /** Events calendar data (events, venues, organizers, terms); seeded only when a selected workload `needs` it. */
  calendar?: CalendarSeedResult;
}

/** Data sets a workload can ask for on top of the identity seed (the key of BenchEnv they fill). */
export type SeedNeed = 'secretScanning' | 'calendar';

/** A request as the baseline server hands it to a handler. */
export interface BaselineRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  /** Raw body ('' when none). */
  body: string;
}

export interface BaselineResponse {
  status: number;
  /** Serialized with JSON.stringify and written directly. */
  json: unknown;
}

export type BaselineHandler = (req: BaselineRequest, db: BaselineDb) => Promise<BaselineResponse> | BaselineResponse;

/** A response as fetched once, before measuring. */
export interface FetchedResponse {
  status: number;
  contentType: string;
  text: string;
  json: unknown;
}

export interface Workload {
  /** Short, unique, kebab-case (used by BENCH_WORKLOADS and in the results file). */
  name: string;
  description: string;
  /** Extra data the workload reads (seeded once, before the servers start, when a selected workload needs it). */
  needs?: SeedNeed[];
  /** Name of the `gateway` target in the table and the results (default 'gateway'), e.g. 'graphql'. */
  gatewayLabel?: string;
  gateway(env: BenchEnv): HttpRequestSpec;
  /**
   * A second gateway request that serves the same data another way (e.g. the REST twin of a GraphQL
   * query). When present it is verified with the others, measured in the same run, and the table shows
   * twin/baseline and gateway/twin next to gateway/baseline. Its body must be deterministic too.
   */
  twin?: {
    label: string;
    request(env: BenchEnv): HttpRequestSpec;
  };
  /**
   * The same data through PostGraphile 5 (`BENCH_POSTGRAPHILE=1`, PostgreSQL only; bench/lib/postgraphile.ts), asked
   * in PostGraphile's schema shape: `request(env, withToken)` without or with the admin's token (checked per request).
   * Measured in the same rounds as the other targets. `verify` throws unless its answer is the gateway's data.
   */
  postgraphile?: {
    request(env: BenchEnv, withToken: boolean): HttpRequestSpec;
    verify(peer: FetchedResponse, gateway: FetchedResponse, env: BenchEnv): string;
  };
  baseline: {
    /** The request sent to the raw server; its method + pathname route to `handler`. */
    request(env: BenchEnv): HttpRequestSpec;
    handler: BaselineHandler;
  };
  /**
   * Throw (BenchFailure) unless both targets answered the same data, and the data is what the seed
   * implies. Returns a one-line summary for the report, e.g. "100 rows of 2000, same order".
   * `twin` is the twin's response when the workload has one.
   */
  verify(gateway: FetchedResponse, baseline: FetchedResponse, env: BenchEnv, twin?: FetchedResponse): string;
  /**
   * 'exact' (default): every response during the measured runs must be byte-identical to the verified one
   * (autocannon counts the others as mismatches, which fail the run). Use 'none' for non-deterministic bodies.
   */
  bodyCheck?: 'exact' | 'none';
}

export class BenchFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BenchFailure';
  }
}
