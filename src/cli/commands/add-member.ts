/** `add-member`: Add a user to an organization, or change a member's role. */
import { ORG_ROLES } from '../../../entities/identity';
import { oneOf, required } from '../args';
import { loginsById } from '../present';
import { CommandSpec, str } from '../spec';

export const addMemberCommand: CommandSpec = {
  summary: "Add a user to an organization, or change a member's role.",
  usage: [`--org O --user U --role ${ORG_ROLES.join('|')}`],
  flags: { org: str, user: str, role: str },
  prepare(v) {
    const input = { org: required(v, 'org'), user: required(v, 'user'), role: oneOf(v, 'role', ORG_ROLES) };
    return async ({ ds, services }) => {
      const m = await services.identity.addMember(ds.manager, input);
      const logins = await loginsById(services, ds.manager, [m.organizationId, m.userId]);
      return {
        id: m.id,
        organization: logins.get(m.organizationId),
        user: logins.get(m.userId),
        role: m.role,
        createdAt: m.createdAt,
      };
    };
  },
};
