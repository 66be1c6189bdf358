/**
 * `npm run worker`: a workflow worker process. It reaches the same database (DATABASE_URL) and Redis (REDIS_URL) as
 * the gateway, takes jobs from the BullMQ queue and runs them (WORKFLOW_CONCURRENCY at a time), and takes over jobs of
 * workers that died (their leases expire). Several workers share the load. SIGTERM/SIGINT: stop taking work, abort
 * running steps (their jobs resume from their last transition on another worker), exit.
 */
import './db/utc';
import { openDatabase } from '../ormconfig';
import { ConfigError, loadConfig } from './config';
import type { AppDeps } from './context';
import { createLogger } from './observability/logger';
import { MODULES } from './modules';
import { closeModules } from './modules/module';
import { createServices } from './services';
import { startWorkflowRunning } from './services/workflow/runner/setup';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
    if (!config.redisUrl) throw new ConfigError('a worker takes jobs from Redis: set REDIS_URL (and DATABASE_URL to the gateway\'s database)');
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
  const dataSource = await openDatabase(config);
  const services = createServices({ detectorThreads: config.detectorThreads });
  const deps: AppDeps = { dataSource, services, config, log };
  const running = startWorkflowRunning(services, deps, 'queue');
  // Asynchronous Express executions whose process died are run again here too (at least once, as in Step Functions).
  services.workflowExpress.start(deps);
  log.info({ owner: running.runner?.owner, concurrency: config.workflowConcurrency }, 'workflow worker ready');
  process.stdout.write(`workflow worker ready (${running.runner?.owner})\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'workflow worker stopping');
    running
      .close()
      .then(() => closeModules(MODULES, services, log))
      .then(() => dataSource.destroy())
      .then(() => process.exit(0))
      .catch((err) => {
        log.error({ err }, 'workflow worker: shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  console.error(`workflow worker failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
