/** `create-user`: Create a user account. */
import { CALENDAR_ROLES } from '../../../entities/identity';
import { flagOn, oneOfOptional, optional, required } from '../args';
import { userJson } from '../present';
import { CommandSpec, bool, str } from '../spec';

export const createUserCommand: CommandSpec = {
  summary: 'Create a user account.',
  usage: [`--login L [--name N] [--email E] [--calendar-role ${CALENDAR_ROLES.join('|')}] [--site-admin]`],
  flags: { login: str, name: str, email: str, 'calendar-role': str, 'site-admin': bool },
  prepare(v) {
    const input = {
      login: required(v, 'login'),
      name: optional(v, 'name') ?? null,
      email: optional(v, 'email') ?? null,
      calendarRole: oneOfOptional(v, 'calendar-role', CALENDAR_ROLES) ?? null,
      siteAdmin: flagOn(v, 'site-admin'),
    };
    return async ({ ds, services }) => userJson(await services.identity.createUser(ds.manager, input));
  },
};
