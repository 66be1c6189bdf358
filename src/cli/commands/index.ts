/** The admin CLI's commands, in the order `help` lists them (one file each). */
import type { CommandSpec } from '../spec';
import { createUserCommand } from './create-user';
import { createOrgCommand } from './create-org';
import { addMemberCommand } from './add-member';
import { createRepoCommand } from './create-repo';
import { grantCommand } from './grant';
import { createTokenCommand } from './create-token';
import { createAccessKeyCommand } from './create-access-key';
import { createConnectionCommand, deleteConnectionCommand, listConnectionsCommand } from './connections';
import { seedDemoCommand } from './seed-demo';

export const COMMANDS: Record<string, CommandSpec> = {
  'create-user': createUserCommand,
  'create-org': createOrgCommand,
  'add-member': addMemberCommand,
  'create-repo': createRepoCommand,
  grant: grantCommand,
  'create-token': createTokenCommand,
  'create-access-key': createAccessKeyCommand,
  'create-connection': createConnectionCommand,
  'list-connections': listConnectionsCommand,
  'delete-connection': deleteConnectionCommand,
  'seed-demo': seedDemoCommand,
};
