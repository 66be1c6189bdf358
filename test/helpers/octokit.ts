/**
 * The real @octokit/rest client pointed at a test server (GitHub-compatible REST families).
 */
import Module from 'node:module';
import * as path from 'node:path';
import type { Octokit as OctokitClient } from '@octokit/rest' with { 'resolution-mode': 'import' };

export type OctokitModule = typeof import('@octokit/rest', { with: { 'resolution-mode': 'import' } });
export type Octokit = OctokitClient;

let octokitCache: OctokitModule | undefined;

/**
 * @octokit/rest 22 (the current major) is ESM-only. Jest (CommonJS, no --experimental-vm-modules) cannot
 * load it through its module registry on Node 20 ("Must use import to load ES Module"; Jest only uses
 * require(esm) on Node >= 24.9), and it replaces `module.createRequire` with its own registry-backed
 * version. Node 20.19+ itself loads ESM with require() (process.features.require_module), so the package
 * is required through a real Node `Module` instance, whose `require` is Node's own loader. The client then
 * lives outside Jest's sandbox: its errors are not `instanceof` the test realm's Error, so tests match
 * them by shape (`{ name: 'HttpError', status }`).
 */
export function octokitModule(): OctokitModule {
  octokitCache ??= nodeRequire('@octokit/rest') as OctokitModule;
  return octokitCache;
}

/** An (ESM-only) package loaded by Node's own loader, outside Jest's registry (see octokitModule). */
export function nodeRequire(id: string): unknown {
  const NodeModule = Module as unknown as {
    new (id: string): { filename: string; paths: string[]; require(id: string): unknown };
    _nodeModulePaths(dir: string): string[];
  };
  const m = new NodeModule(__filename);
  m.filename = __filename;
  m.paths = NodeModule._nodeModulePaths(path.dirname(__filename));
  return m.require(id);
}

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** A real Octokit pointed at the test server (no trailing slash: Octokit concatenates paths). */
export function octokit(baseUrl: string, token?: string): Octokit {
  const { Octokit } = octokitModule();
  return new Octokit({ baseUrl: baseUrl.replace(/\/+$/, ''), ...(token ? { auth: token } : {}), log: quiet });
}
