/** `create-org`: Create an organization account. */
import { optional, required } from '../args';
import { orgJson } from '../present';
import { CommandSpec, str } from '../spec';

export const createOrgCommand: CommandSpec = {
  summary: 'Create an organization account.',
  usage: ['--login L [--name N]'],
  flags: { login: str, name: str },
  prepare(v) {
    const input = { login: required(v, 'login'), name: optional(v, 'name') ?? null };
    return async ({ ds, services }) => orgJson(await services.identity.createOrganization(ds.manager, input));
  },
};
