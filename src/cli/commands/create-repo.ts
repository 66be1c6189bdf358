/** `create-repo`: Create a repository owned by a user or an organization. */
import { flagOn, optional, required } from '../args';
import { repositoryFullNames } from '../present';
import { CommandSpec, bool, str } from '../spec';

export const createRepoCommand: CommandSpec = {
  summary: 'Create a repository owned by a user or an organization.',
  usage: [
    '--owner O --name N [--private] [--secret-scanning] [--push-protection] [--advanced-security] [--delegated-alert-dismissal] [--description D]',
  ],
  flags: {
    owner: str,
    name: str,
    private: bool,
    'secret-scanning': bool,
    'push-protection': bool,
    'advanced-security': bool,
    'delegated-alert-dismissal': bool,
    description: str,
  },
  prepare(v) {
    const input = {
      owner: required(v, 'owner'),
      name: required(v, 'name'),
      description: optional(v, 'description') ?? null,
      // An absent switch is left to the service's default (e.g. --push-protection implies secret scanning).
      private: flagOn(v, 'private'),
      secretScanning: flagOn(v, 'secret-scanning'),
      pushProtection: flagOn(v, 'push-protection'),
      advancedSecurity: flagOn(v, 'advanced-security'),
      delegatedAlertDismissal: flagOn(v, 'delegated-alert-dismissal'),
    };
    return async ({ ds, services }) => {
      const r = await services.identity.createRepository(ds.manager, input);
      const [fullName] = await repositoryFullNames(services, ds.manager, [r.id]);
      return {
        id: r.id,
        owner: fullName.slice(0, fullName.indexOf('/')),
        name: r.name,
        fullName,
        description: r.description,
        private: r.private,
        secretScanning: r.secretScanning,
        pushProtection: r.pushProtection,
        advancedSecurity: r.advancedSecurity,
        delegatedAlertDismissal: r.delegatedAlertDismissal,
        createdAt: r.createdAt,
      };
    };
  },
};
