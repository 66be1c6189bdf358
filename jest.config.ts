/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';

/**
 * Unit and e2e tests. Without DATABASE_URL every test file gets an in-memory SQLite database; with a
 * postgres:// DATABASE_URL each file gets its own throwaway PostgreSQL database next to it.
 */
const config: Config = {
  testEnvironment: 'node',
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
  maxWorkers: 2,
  // A worker's heap grows by 60-80 MB with each e2e file (measured with --logHeapUsage: 131 -> 542 MB over 7
  // files), and the GC of a heap of several GB came to dominate the suite: a worker past this limit after a file is
  // replaced by a fresh one.
  workerIdleMemoryLimit: '800MB',
  testTimeout: 30_000,
  // Browser and server-process tests share the machine's two cores; keep output readable.
  verbose: false,
};

export default config;
