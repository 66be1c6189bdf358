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
  testTimeout: 30_000,
  // Browser and server-process tests share the machine's two cores; keep output readable.
  verbose: false,
};

export default config;
