/**
 * Identity fields of the graph: viewer, users, organizations, repositories. Thin: args -> service -> entity.
 */
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, ID, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { itemSelection } from '../common/lookahead';
import { AccountEntity, RepositoryEntity } from '../../entities/identity';
import type { RequestContext } from '../../src/context';
import { NotFoundError } from '../../src/errors/app-error';
import { parseFullName } from '../../src/services/identity/identity.service';
import { Connection, ConnectionArgs, ConnectionShape, toConnection } from '../common/connection';
import { toGlobalId } from '../common/global-id';
import { registerNodeType } from '../common/node';
import {
  Organization,
  OrganizationRoleEnum,
  Repository,
  RepositoryOwner,
  RepositoryPermissionEnum,
  RepositorySecuritySettings,
  UpdateRepositorySecuritySettingsInput,
  UpdateRepositorySecuritySettingsPayload,
  User,
} from './identity.type';

const RepositoryConnection = Connection(Repository, 'Repository');

registerNodeType({
  typeName: 'User',
  idKind: 'int4',
  isTypeOf: (v) => v instanceof AccountEntity && v.type === 'User',
  load: async (ctx, id) => {
    const a = await ctx.loaders.accountById.load(id);
    return a && a.type === 'User' ? a : null;
  },
});
registerNodeType({
  typeName: 'Organization',
  idKind: 'int4',
  isTypeOf: (v) => v instanceof AccountEntity && v.type === 'Organization',
  load: async (ctx, id) => {
    const a = await ctx.loaders.accountById.load(id);
    return a && a.type === 'Organization' ? a : null;
  },
});
registerNodeType({
  typeName: 'Repository',
  idKind: 'int4',
  isTypeOf: (v) => v instanceof RepositoryEntity,
  load: async (ctx, id) => {
    const r = await ctx.loaders.repositoryById.load(id);
    if (!r) return null;
    return (await ctx.services.access.canSeeRepository(ctx, r)) ? r : null;
  },
});

@Resolver(() => User)
export class UserResolver {
  @Query(() => User, { nullable: true, description: 'The authenticated user; null for anonymous requests.' })
  viewer(@Ctx() ctx: RequestContext): AccountEntity | null {
    return ctx.viewer.kind === 'user' ? ctx.viewer.user : null;
  }

  @Query(() => User, { nullable: true, description: 'Look up a user by login (case-insensitive).' })
  user(@Arg('login') login: string, @Ctx() ctx: RequestContext): Promise<AccountEntity> {
    return ctx.services.identity.getUser(ctx, login);
  }

  @FieldResolver(() => ID)
  id(@Root() u: AccountEntity): string {
    return toGlobalId('User', u.id);
  }

  @FieldResolver(() => Int)
  databaseId(@Root() u: AccountEntity): number {
    return u.id;
  }

  @FieldResolver(() => RepositoryConnection, { description: "The user's repositories the viewer may see, by name." })
  repositories(
    @Root() u: AccountEntity,
    @Args() args: ConnectionArgs,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionShape<RepositoryEntity>> {
    return ctx.services.identity.listRepositories(ctx, u, args, itemSelection(info)).then(toConnection);
  }
}

@Resolver(() => Organization)
export class OrganizationResolver {
  @Query(() => Organization, { nullable: true, description: 'Look up an organization by login (case-insensitive).' })
  organization(@Arg('login') login: string, @Ctx() ctx: RequestContext): Promise<AccountEntity> {
    return ctx.services.identity.getOrganization(ctx, login);
  }

  @FieldResolver(() => ID)
  id(@Root() o: AccountEntity): string {
    return toGlobalId('Organization', o.id);
  }

  @FieldResolver(() => Int)
  databaseId(@Root() o: AccountEntity): number {
    return o.id;
  }

  @FieldResolver(() => OrganizationRoleEnum, { nullable: true, description: "The viewer's role in the organization." })
  viewerRole(@Root() o: AccountEntity, @Ctx() ctx: RequestContext): Promise<string | null> {
    return ctx.services.access.orgRole(ctx, o.id);
  }

  @FieldResolver(() => RepositoryConnection, { description: "The organization's repositories the viewer may see, by name." })
  repositories(
    @Root() o: AccountEntity,
    @Args() args: ConnectionArgs,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionShape<RepositoryEntity>> {
    return ctx.services.identity.listRepositories(ctx, o, args, itemSelection(info)).then(toConnection);
  }
}

@Resolver(() => Repository)
export class RepositoryResolver {
  @Query(() => Repository, {
    nullable: true,
    description: 'Look up a repository by owner and name (case-insensitive). Null with NOT_FOUND when missing or not visible.',
  })
  repository(@Arg('owner') owner: string, @Arg('name') name: string, @Ctx() ctx: RequestContext): Promise<RepositoryEntity> {
    return ctx.services.identity.getRepository(ctx, owner, name);
  }

  @Mutation(() => UpdateRepositorySecuritySettingsPayload, {
    description: 'Turn secret scanning, push protection, advanced security and delegated alert dismissal on or off (repository admins).',
  })
  async updateRepositorySecuritySettings(
    @Arg('input') input: UpdateRepositorySecuritySettingsInput,
    @Ctx() ctx: RequestContext,
  ): Promise<{ repository: RepositoryEntity }> {
    const { owner, name } = parseFullName(input.repository);
    const found = await ctx.services.identity.getRepository(ctx, owner, name);
    const repository = await ctx.services.identity.updateRepositorySecuritySettings(ctx, found, input);
    return { repository };
  }

  @FieldResolver(() => ID)
  id(@Root() r: RepositoryEntity): string {
    return toGlobalId('Repository', r.id);
  }

  @FieldResolver(() => Int)
  databaseId(@Root() r: RepositoryEntity): number {
    return r.id;
  }

  @FieldResolver()
  isPrivate(@Root() r: RepositoryEntity): boolean {
    return r.private;
  }

  @FieldResolver(() => RepositoryOwner)
  owner(@Root() r: RepositoryEntity, @Ctx() ctx: RequestContext): AccountEntity | Promise<AccountEntity> {
    const found = (a: AccountEntity | null): AccountEntity => {
      if (!a) throw new NotFoundError('Repository owner not found');
      return a;
    };
    // The value itself when the loader holds it (lists prime the owner): no promise per repository.
    return ctx.loaders.accountById.with(r.ownerId, found);
  }

  @FieldResolver(() => String, { description: 'owner/name' })
  nameWithOwner(@Root() r: RepositoryEntity, @Ctx() ctx: RequestContext): string | Promise<string> {
    const name = (a: AccountEntity | null) => `${a?.login ?? 'ghost'}/${r.name}`;
    return ctx.loaders.accountById.with(r.ownerId, name);
  }

  @FieldResolver(() => RepositoryPermissionEnum, { nullable: true, description: "The viewer's permission on the repository." })
  viewerPermission(@Root() r: RepositoryEntity, @Ctx() ctx: RequestContext): Promise<string | null> {
    return ctx.services.identity.viewerPermission(ctx, r);
  }

  @FieldResolver(() => RepositorySecuritySettings, {
    nullable: true,
    description: 'The same as securitySettings (the name the secret scanning issue uses); null unless the viewer administers the repository.',
  })
  settings(@Root() r: RepositoryEntity, @Ctx() ctx: RequestContext): Promise<RepositorySecuritySettings | null> {
    return ctx.services.identity.securitySettingsFor(ctx, r);
  }

  @FieldResolver(() => RepositorySecuritySettings, {
    nullable: true,
    description:
      'Secret scanning, push protection, advanced security and delegated dismissal; null unless the viewer administers the repository (as REST shows security_and_analysis to admins only).',
  })
  securitySettings(@Root() r: RepositoryEntity, @Ctx() ctx: RequestContext): Promise<RepositorySecuritySettings | null> {
    return ctx.services.identity.securitySettingsFor(ctx, r);
  }
}
