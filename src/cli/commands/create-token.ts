/** `create-token`: Create a personal access token. The token is printed once; only its hash is stored. */
import type { Services } from '../../services';
import { expiryFromDays, nonEmpty, oneOf, optional, parsePermissions, parseScopes, repoArg, required } from '../args';
import { loginsById, repositoryFullNames } from '../present';
import { CommandSpec, UsageError, str } from '../spec';

const TOKEN_KINDS = ['classic', 'fine_grained'] as const;

export const createTokenCommand: CommandSpec = {
  summary: 'Create a personal access token. The token is printed once; only its hash is stored.',
  usage: [
    '--user U --kind classic --scopes S[,S...] [--note X] [--expires-in-days N]',
    '--user U --kind fine_grained --repo O/N [--repo O/N ...] --permissions P:read|write[,P:read|write...] [--note X] [--expires-in-days N]',
  ],
  flags: {
    user: str,
    kind: str,
    scopes: str,
    repo: { type: 'string', multiple: true },
    permissions: str,
    note: str,
    'expires-in-days': str,
  },
  prepare(v) {
    const user = required(v, 'user');
    const kind = oneOf(v, 'kind', TOKEN_KINDS);
    const note = optional(v, 'note') ?? null;
    const expiresInDays = optional(v, 'expires-in-days');
    const expiresAt = expiresInDays === undefined ? null : expiryFromDays(expiresInDays);
    const repos = (v.repo as string[] | undefined) ?? [];
    let input: Parameters<Services['identity']['createToken']>[1];
    if (kind === 'classic') {
      if (repos.length || v.permissions !== undefined) {
        throw new UsageError('--repo and --permissions are for --kind fine_grained; a classic token takes --scopes');
      }
      input = { user, kind, scopes: parseScopes(required(v, 'scopes')), note, expiresAt };
    } else {
      if (v.scopes !== undefined) {
        throw new UsageError('--scopes is for --kind classic; a fine_grained token takes --repo and --permissions');
      }
      if (!repos.length) throw new UsageError('missing required flag --repo (a fine_grained token needs at least one)');
      input = {
        user,
        kind,
        repos: repos.map((r) => repoArg(nonEmpty('repo', r))),
        permissions: parsePermissions(required(v, 'permissions')),
        note,
        expiresAt,
      };
    }
    return async ({ ds, services }) => {
      const { token, record } = await services.identity.createToken(ds.manager, input);
      const logins = await loginsById(services, ds.manager, [record.userId]);
      return {
        id: record.id,
        user: logins.get(record.userId),
        kind: record.kind,
        token,
        hint: record.tokenHint,
        note: record.note,
        scopes: record.scopes,
        permissions: record.permissions,
        repositories: record.repositoryIds ? await repositoryFullNames(services, ds.manager, record.repositoryIds) : null,
        expiresAt: record.expiresAt,
        createdAt: record.createdAt,
      };
    };
  },
};
