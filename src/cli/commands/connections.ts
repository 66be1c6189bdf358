/**
 * `create-connection`, `list-connections`, `delete-connection`: connections of workflow HTTP tasks (EventBridge-shaped:
 * API key, basic or OAuth client credentials). The secret is stored sealed under the server key and never printed.
 */
import { CONNECTION_AUTH_TYPES } from '../../services/workflow/connections.service';
import { writeTransaction } from '../../db/transaction';
import { oneOf, optional, required } from '../args';
import { CommandSpec, str, UsageError } from '../spec';

export const createConnectionCommand: CommandSpec = {
  summary: 'Create a connection for workflow HTTP tasks (its secret is stored encrypted and never shown again).',
  usage: [
    '--name N --auth API_KEY --api-key-name HEADER --api-key-value VALUE [--description D]',
    '--name N --auth BASIC --username U --password P [--description D]',
    '--name N --auth OAUTH_CLIENT_CREDENTIALS --authorization-endpoint URL --client-id ID --client-secret S [--http-method POST|GET|PUT] [--scope S] [--description D]',
  ],
  flags: {
    name: str,
    auth: str,
    description: str,
    'api-key-name': str,
    'api-key-value': str,
    username: str,
    password: str,
    'authorization-endpoint': str,
    'http-method': str,
    'client-id': str,
    'client-secret': str,
    scope: str,
  },
  prepare(v) {
    const authorizationType = oneOf(v, 'auth', CONNECTION_AUTH_TYPES);
    const needs: Record<string, string[]> = {
      API_KEY: ['api-key-name', 'api-key-value'],
      BASIC: ['username', 'password'],
      OAUTH_CLIENT_CREDENTIALS: ['authorization-endpoint', 'client-id', 'client-secret'],
    };
    for (const f of needs[authorizationType]) required(v, f);
    for (const [type, flags] of Object.entries(needs)) {
      if (type === authorizationType) continue;
      for (const f of flags) if (v[f] !== undefined) throw new UsageError(`--${f} does not apply to --auth ${authorizationType}`);
    }
    const input = {
      name: required(v, 'name'),
      description: optional(v, 'description'),
      authorizationType,
      apiKeyName: optional(v, 'api-key-name'),
      apiKeyValue: optional(v, 'api-key-value'),
      username: optional(v, 'username'),
      password: optional(v, 'password'),
      authorizationEndpoint: optional(v, 'authorization-endpoint'),
      httpMethod: optional(v, 'http-method'),
      clientId: optional(v, 'client-id'),
      clientSecret: optional(v, 'client-secret'),
      scope: optional(v, 'scope'),
    };
    return async ({ ds, services, config }) => writeTransaction(ds.manager, (m) => services.workflowConnections.createIn(m, config, input, null));
  },
};

export const listConnectionsCommand: CommandSpec = {
  summary: 'List the connections of workflow HTTP tasks (without their secrets).',
  usage: [''],
  flags: {},
  prepare() {
    return async ({ ds, services }) => ({ connections: await services.workflowConnections.listIn(ds.manager) });
  },
};

export const deleteConnectionCommand: CommandSpec = {
  summary: 'Delete a connection of workflow HTTP tasks (by name or ARN); tasks naming it fail from then on.',
  usage: ['--connection NAME|ARN'],
  flags: { connection: str },
  prepare(v) {
    const which = required(v, 'connection');
    return async ({ ds, services }) => writeTransaction(ds.manager, (m) => services.workflowConnections.deleteIn(m, which));
  },
};
