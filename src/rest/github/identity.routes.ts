/**
 * GitHub-family identity routes: GET /user and GET /repos/{owner}/{repo}. They call the same
 * IdentityService methods as the GraphQL `viewer` and `repository` fields.
 */
import type { AccountEntity, RepositoryEntity } from '../../../entities/identity';
import { UnauthenticatedError } from '../../errors/app-error';
import type { RepositorySecuritySettings } from '../../services/identity/identity.service';
import { route, RestRoute } from '../route-table';
import * as P from './params';
import { presentFullRepository, presentUser } from './presenters';


export const githubIdentityRoutes: RestRoute<any, any>[] = [
  route<void, AccountEntity>({
    family: 'github',
    method: 'GET',
    path: '/user',
    operationId: 'users/get-authenticated',
    summary: 'Get the authenticated user',
    tags: ['users'],
    responses: { '200': { description: 'The authenticated user' }, '401': { description: 'Requires authentication' } },
    input: () => undefined,
    handle: async (ctx) => {
      if (ctx.viewer.kind !== 'user') throw new UnauthenticatedError();
      return ctx.viewer.user;
    },
    present: (user, ctx) => ({ body: { ...presentUser(user, ctx.config.publicUrl), name: user.name, email: user.email } }),
  }),
  route<{ owner: string; repo: string }, { repo: RepositoryEntity; owner: AccountEntity; settings: RepositorySecuritySettings | null }>({
    family: 'github',
    method: 'GET',
    path: '/repos/{owner}/{repo}',
    operationId: 'repos/get',
    summary: 'Get a repository',
    tags: ['repos'],
    parameters: [P.owner, P.repo],
    responses: { '200': { description: 'The repository' }, '404': { description: 'Resource not found' } },
    input: (req) => ({ owner: P.owner.read(req), repo: P.repo.read(req) }),
    handle: async (ctx, input) => {
      const repo = await ctx.services.identity.getRepository(ctx, input.owner, input.repo);
      const owner = (await ctx.loaders.accountById.load(repo.ownerId))!;
      return { repo, owner, settings: await ctx.services.identity.securitySettingsFor(ctx, repo) };
    },
    present: (r, ctx) => ({ body: presentFullRepository(r.repo, r.owner, ctx.config.publicUrl, r.settings) }),
  }),
];
