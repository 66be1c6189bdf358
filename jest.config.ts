/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';

/**
 * Unit and e2e tests. Without DATABASE_URL every test file gets an in-memory SQLite database; with a
 * postgres:// DATABASE_URL each file gets its own throwaway PostgreSQL database next to it.
 */
const config: Config = {
  // JEST_CPU_LOG=<file.jsonl>: each file's CPU, its spawned processes' included (test/tools/cpu-environment.js).
  testEnvironment: process.env.JEST_CPU_LOG ? '<rootDir>/test/tools/cpu-environment.js' : 'node',
  // src: tests that live beside a fenced bypass (src/graphql/direct-resolvers).
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.spec.ts', '**/*.e2e.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', diagnostics: false }],
  },
  // The workflow client package from its source (as tsconfig.json's paths), so tests never run a stale build.
  moduleNameMapper: { '^@graphql-domain-gateway/workflow-client$': '<rootDir>/packages/workflow-client/src/index.ts' },
  setupFiles: ['<rootDir>/test/setup.ts'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  // The longest files first, also on a fresh clone whose jest cache has no timings (test/sequencer/index.js).
  testSequencer: '<rootDir>/test/sequencer/index.js',
  // Compiled modules reused across the files a worker runs (V8's code cache, in memory): test/runtime/code-cache.js.
  runtime: '<rootDir>/test/runtime/code-cache.js',
  maxWorkers: 2,
  // A worker that ends a file holding more than this is replaced by a fresh one. Each e2e file's module graph used to
  // stay reachable after it (prom-client's default metrics, see src/observability/process-metrics.ts) and the GC of
  // heaps of several GB came to dominate the suite; this bounds what any such leak can cost.
  workerIdleMemoryLimit: '800MB',
  testTimeout: 30_000,
  // Browser and server-process tests share the machine's two cores; keep output readable.
  verbose: false,
};

export default config;
