/**
 * Request contexts for service tests: what a request would build (fresh loaders, a viewer from a real
 * token), without HTTP. Services take loaded entities: `repository` / `organization` look them up the way
 * a REST route or a resolver does (through a request's loaders, with no access check).
 */
import type { DataSource } from 'typeorm';
import type { AccountEntity, RepositoryEntity } from '../../entities/identity';
import { authenticateBearer } from '../../src/auth/authenticate';
import type { Viewer } from '../../src/auth/viewer';
import { AppConfig, loadConfig } from '../../src/config';
import { AppDeps, contextFor, RequestContext } from '../../src/context';
import { createLogger } from '../../src/observability/logger';
import type { Services } from '../../src/services';

export interface TestContexts {
  deps: AppDeps;
  /** A fresh context (one request) for a token; anonymous without one. */
  as(token?: string): Promise<RequestContext>;
  /** A fresh context for a viewer built in the test (e.g. an internal credential). */
  forViewer(viewer: Viewer, requestId?: string): RequestContext;
  /** The repository owner/name as a request would load it (null when none), whatever the viewer may see. */
  repository(owner: string, name: string): Promise<RepositoryEntity | null>;
  /** The account with this login as a request would load it (null when none). */
  account(login: string): Promise<AccountEntity | null>;
}

export function testContexts(dataSource: DataSource, services: Services, config: AppConfig = loadConfig({})): TestContexts {
  const deps: AppDeps = { dataSource, services, config, log: createLogger('silent') };
  const forViewer = (viewer: Viewer, requestId = 'test') => contextFor(deps, requestId, viewer);
  return {
    deps,
    forViewer,
    async as(token) {
      return contextFor(deps, 'test', token ? await authenticateBearer(dataSource, `Bearer ${token}`) : undefined);
    },
    repository(owner, name) {
      const ctx = contextFor(deps, 'lookup');
      return services.identity.findRepository(ctx, owner, name);
    },
    account(login) {
      const ctx = contextFor(deps, 'lookup');
      return services.identity.findAccount(ctx, login);
    },
  };
}
