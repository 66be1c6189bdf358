/**
 * `npm start`: migrate, seed the demo on first run, listen, and shut down gracefully on SIGTERM/SIGINT.
 */
import './db/utc';
import { AccountEntity } from '../entities/identity';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './observability/logger';
import { DemoCredentials, loadDemoCredentials, saveDemoCredentials, seedDemo } from './seed/demo';
import { createApp } from './server';


async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`configuration error: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  const log = createLogger(config.logLevel);
  // A promise rejection nobody handled is a bug to fix, not a reason to drop every request in flight: logged.
  process.on('unhandledRejection', (err) => log.error({ err }, 'unhandled promise rejection (a bug)'));
  const app = await createApp(config, { logger: log });

  let demo: DemoCredentials | undefined;
  if (config.seedDemo && (await app.dataSource.getRepository(AccountEntity).count()) === 0) {
    demo = await seedDemo(app.dataSource, app.deps.services, config.secretKey, app.config);
    saveDemoCredentials(config.database, demo);
  } else {
    demo = loadDemoCredentials(config.database);
  }

  const url = await app.listen();
  const shown = config.publicUrl;
  const lines = [
    '',
    `  Gateway ready at  ${shown}   (listening on ${url})`,
    `  GraphQL endpoint  ${shown}/graphql`,
    `  Playground        ${shown}/graphql   (open in a browser)`,
    `  Health            ${shown}/healthz  ${shown}/readyz  ${shown}/metrics`,
  ];
  if (demo) {
    lines.push('', '  Demo tokens (send as "Authorization: Bearer <token>"):');
    for (const t of demo.tokens) lines.push(`    ${t.user.padEnd(6)} ${t.token}   ${t.description}`);
    for (const k of demo.accessKeys) {
      // The secret is printed by the run that created the key only (it is not kept in the credentials file).
      lines.push(
        k.secretAccessKey
          ? `  Demo workflow access key (${k.user}): ${k.accessKeyId} / ${k.secretAccessKey}   (secret shown once)`
          : `  Demo workflow access key (${k.user}): ${k.accessKeyId}   (secret shown when created; new key: npm run admin -- create-access-key --user ${k.user})`,
      );
    }
    if (demo.secretScanning) {
      lines.push(`  Demo secret scanning: ${demo.secretScanning.alerts} alerts from real pushes (acme/website, alice/dotfiles);`);
      lines.push(`    a push to acme/api was blocked by push protection (placeholder ${demo.secretScanning.blockedPlaceholderId}, carol may bypass it)`);
      lines.push(`    curl -s ${shown}/orgs/acme/secret-scanning/alerts -H 'authorization: token ${demo.tokens[0].token}'`);
    }
    lines.push('', `  Try: curl -s ${shown}/graphql -H 'content-type: application/json' -H 'authorization: Bearer ${demo.tokens[0].token}' -d '{"query":"{ viewer { login } }"}'`);
  }
  lines.push('');
  process.stdout.write(lines.join('\n') + '\n');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    app
      .close()
      .then(() => {
        log.info('shutdown complete');
        process.exit(0);
      })
      .catch((err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  console.error(`failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
