/**
 * Identity: accounts (users, organizations), memberships, repositories and their collaborators, access tokens,
 * workflow access keys, server settings. Every other domain's access rules ask these services.
 */
import {
  AccessTokenEntity,
  AccountEntity,
  MembershipEntity,
  RepositoryCollaboratorEntity,
  RepositoryEntity,
  RepositoryTotalEntity,
  ServerSettingEntity,
  WorkflowAccessKeyEntity,
} from '../../../entities/identity';
import { Identity1795314431353 as SqliteIdentity } from '../../db/migrations/sqlite/1795314431353-Identity';
import { RepositoryTotals1795743079654 as SqliteRepositoryTotals } from '../../db/migrations/sqlite/1795743079654-RepositoryTotals';
import { Identity1795314431353 as PostgresIdentity } from '../../db/migrations/postgres/1795314431353-Identity';
import { RepositoryTotals1795743079654 as PostgresRepositoryTotals } from '../../db/migrations/postgres/1795743079654-RepositoryTotals';
import { createIdentityLoaders } from '../../loaders/identity';
import { githubIdentityRoutes } from '../../rest/github/identity.routes';
import { AccessService } from '../../services/identity/access.service';
import { IdentityService } from '../../services/identity/identity.service';
import type * as IdentityResolvers from '../../../resolvers/identity/identity.resolver';
import { defineModule, ServicesOf } from '../module';

export const identityModule = defineModule({
  name: 'identity',
  entities: [AccountEntity, MembershipEntity, RepositoryEntity, RepositoryCollaboratorEntity, RepositoryTotalEntity, AccessTokenEntity, WorkflowAccessKeyEntity, ServerSettingEntity],
  migrations: { sqlite: [SqliteIdentity, SqliteRepositoryTotals], postgres: [PostgresIdentity, PostgresRepositoryTotals] },
  services() {
    const access = new AccessService();
    return { access, identity: new IdentityService(access) };
  },
  loaders: createIdentityLoaders,
  resolvers() {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const r = require('../../../resolvers/identity/identity.resolver') as typeof IdentityResolvers;
    return [r.UserResolver, r.OrganizationResolver, r.RepositoryResolver];
  },
  routes: { github: githubIdentityRoutes },
});

export type IdentityServices = ServicesOf<typeof identityModule>;
