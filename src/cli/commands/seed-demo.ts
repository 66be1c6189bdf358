/** `seed-demo`: Seed the demo organization, users, repositories, tokens and access key into an empty database. */
import { AccountEntity } from '../../../entities/identity';
import { saveDemoCredentials, seedDemo } from '../../seed/demo';
import { CliFailure, CommandSpec } from '../spec';

export const seedDemoCommand: CommandSpec = {
  summary: 'Seed the demo organization, users, repositories, tokens and access key into an empty database.',
  usage: [''],
  flags: {},
  prepare() {
    return async ({ ds, services, config }) => {
      const accounts = await ds.getRepository(AccountEntity).count();
      if (accounts > 0) {
        throw new CliFailure(
          `the database is not empty (it has ${accounts} account${accounts === 1 ? '' : 's'}); seed-demo only seeds an empty database`,
          1,
        );
      }
      const demo = await seedDemo(ds, services, config.secretKey, config);
      saveDemoCredentials(config.database, demo);
      return demo;
    };
  },
};
