/** `grant`: Grant a user a direct permission on a repository (or change it). */
import { REPOSITORY_PERMISSIONS } from '../../../entities/identity';
import { oneOf, repoArg, required } from '../args';
import { loginsById, repositoryFullNames } from '../present';
import { CommandSpec, str } from '../spec';

export const grantCommand: CommandSpec = {
  summary: "Grant a user a direct permission on a repository (or change it).",
  usage: [`--repo O/N --user U --permission ${REPOSITORY_PERMISSIONS.join('|')}`],
  flags: { repo: str, user: str, permission: str },
  prepare(v) {
    const input = {
      repo: repoArg(required(v, 'repo')),
      user: required(v, 'user'),
      permission: oneOf(v, 'permission', REPOSITORY_PERMISSIONS),
    };
    return async ({ ds, services }) => {
      const c = await services.identity.grant(ds.manager, input);
      const [repository] = await repositoryFullNames(services, ds.manager, [c.repositoryId]);
      const logins = await loginsById(services, ds.manager, [c.userId]);
      return { id: c.id, repository, user: logins.get(c.userId), permission: c.permission, createdAt: c.createdAt };
    };
  },
};
