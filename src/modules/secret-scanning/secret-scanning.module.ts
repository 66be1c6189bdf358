/**
 * Secret scanning: alerts, their locations, push protection bypasses, scan history and the background rescans
 * (detection runs in worker threads). Access rules come from the identity services it is given.
 */
import {
  PushProtectionPlaceholderEntity,
  SecretScanningAlertCounterEntity,
  SecretScanningAlertEntity,
  SecretScanningAlertTotalEntity,
  SecretScanningContentEntity,
  SecretScanningLocationEntity,
  SecretScanningScanEntity,
} from '../../../entities/secret-scanning';
import type * as SecretScanningResolvers from '../../../resolvers/secret-scanning/secret-scanning.resolver';
import { SecretScanning1795316639270 as SqliteSecretScanning } from '../../db/migrations/sqlite/1795316639270-SecretScanning';
import { SecretScanningOwnerRepoIndex1795318983053 as SqliteOwnerRepoIndex } from '../../db/migrations/sqlite/1795318983053-SecretScanningOwnerRepoIndex';
import { ScanAttemptKey1795468009506 as SqliteScanAttemptKey } from '../../db/migrations/sqlite/1795468009506-ScanAttemptKey';
import { SecretScanningAlertTotals1795740258158 as SqliteAlertTotals } from '../../db/migrations/sqlite/1795740258158-SecretScanningAlertTotals';
import { SecretScanning1795316639270 as PostgresSecretScanning } from '../../db/migrations/postgres/1795316639270-SecretScanning';
import { SecretScanningOwnerRepoIndex1795318983053 as PostgresOwnerRepoIndex } from '../../db/migrations/postgres/1795318983053-SecretScanningOwnerRepoIndex';
import { ScanAttemptKey1795468009506 as PostgresScanAttemptKey } from '../../db/migrations/postgres/1795468009506-ScanAttemptKey';
import { SecretScanningAlertTotals1795740258158 as PostgresAlertTotals } from '../../db/migrations/postgres/1795740258158-SecretScanningAlertTotals';
import { createSecretScanningLoaders } from '../../loaders/secret-scanning';
import { secretScanningOpenApiDocument } from '../../rest/github/secret-scanning.openapi';
import { githubSecretScanningRoutes } from '../../rest/github/secret-scanning.routes';
import { SecretScanningAlertAccess } from '../../services/secret-scanning/alert-access';
import { SecretScanningFindingService } from '../../services/secret-scanning/alert-findings';
import { SecretScanningAlertQueryService } from '../../services/secret-scanning/alert-queries';
import { SecretScanningAlertUpdateService } from '../../services/secret-scanning/alert-updates';
import { DetectorPool } from '../../services/secret-scanning/detector/pool';
import { SecretScanningPushService } from '../../services/secret-scanning/push.service';
import { SecretScanningScanService } from '../../services/secret-scanning/scans';
import type { IdentityServices } from '../identity/identity.module';
import { defineModule, ServicesOf } from '../module';

export const secretScanningModule = defineModule({
  name: 'secret-scanning',
  requires: ['identity'],
  entities: [
    SecretScanningAlertEntity,
    SecretScanningLocationEntity,
    SecretScanningAlertCounterEntity,
    SecretScanningAlertTotalEntity,
    PushProtectionPlaceholderEntity,
    SecretScanningScanEntity,
    SecretScanningContentEntity,
  ],
  migrations: {
    sqlite: [SqliteSecretScanning, SqliteOwnerRepoIndex, SqliteScanAttemptKey, SqliteAlertTotals],
    postgres: [PostgresSecretScanning, PostgresOwnerRepoIndex, PostgresScanAttemptKey, PostgresAlertTotals],
  },
  services({ access, identity }: IdentityServices, options) {
    const alertAccess = new SecretScanningAlertAccess(access);
    const alerts = new SecretScanningAlertQueryService(identity, alertAccess);
    const findings = new SecretScanningFindingService();
    const scans = new SecretScanningScanService(alertAccess);
    return {
      /** secret scanning: the alerts' access rules (repository and organization endpoints, node(id:) visibility) */
      secretScanningAlertAccess: alertAccess,
      /** secret scanning: alert listings, one alert, its locations */
      secretScanningAlerts: alerts,
      /** secret scanning: alert updates (state, resolution, assignee, validity) */
      secretScanningAlertUpdates: new SecretScanningAlertUpdateService({ access, identity, alertAccess, alerts }),
      /** secret scanning: recording findings as alerts and locations */
      secretScanningFindings: findings,
      /** secret scanning: scan history (recording and reading scan runs) */
      secretScanningScans: scans,
      secretScanningPush: new SecretScanningPushService({ access, identity, alertAccess, findings, scans }, new DetectorPool(options.detectorThreads)),
    };
  },
  loaders: createSecretScanningLoaders,
  resolvers() {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('../../../resolvers/secret-scanning/secret-scanning.resolver') as typeof SecretScanningResolvers).SECRET_SCANNING_RESOLVERS;
  },
  routes: { github: githubSecretScanningRoutes },
  openapi: [{ ...secretScanningOpenApiDocument, family: 'github' }],
  async start(services, deps) {
    // Scans a previous run left in progress (it stopped mid-scan) are failed: nothing will finish them.
    const interrupted = await services.secretScanningPush.failInterruptedScans(deps.dataSource.manager);
    if (interrupted) deps.log.warn({ scans: interrupted }, 'secret scans left in_progress by a previous run marked failed');
  },
  // Background rescans are cancelled and marked failed; the detector's threads end.
  close: (services) => services.secretScanningPush.close(),
});

export type SecretScanningServices = ServicesOf<typeof secretScanningModule>;
