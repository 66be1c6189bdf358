/** `create-access-key`: Create a workflow access key (SigV4). The secret is printed once; it is stored encrypted. */
import { required } from '../args';
import { loginsById } from '../present';
import { CommandSpec, str } from '../spec';

export const createAccessKeyCommand: CommandSpec = {
  summary: 'Create a workflow access key (SigV4). The secret is printed once; it is stored encrypted.',
  usage: ['--user U'],
  flags: { user: str },
  prepare(v) {
    const input = { user: required(v, 'user') };
    return async ({ ds, services, config }) => {
      const { accessKeyId, secretAccessKey, record } = await services.identity.createAccessKey(ds.manager, input, config.secretKey);
      const logins = await loginsById(services, ds.manager, [record.userId]);
      return {
        id: record.id,
        user: logins.get(record.userId),
        accessKeyId,
        secretAccessKey,
        status: record.status,
        createdAt: record.createdAt,
      };
    };
  },
};
