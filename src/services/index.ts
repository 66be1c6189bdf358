/**
 * The service registry. Services are stateless (all request state comes in the context), so one set
 * serves every request of an app instance.
 */
import { AccessService } from './identity/access.service';
import { IdentityService } from './identity/identity.service';
import { SecretScanningAlertsService } from './secret-scanning/alerts.service';
import { DetectorPool } from './secret-scanning/detector/pool';
import { SecretScanningPushService } from './secret-scanning/push.service';

export interface ServicesOptions {
  /** Worker threads of the secret detector (default: available parallelism - 1, at least 1). */
  detectorThreads?: number;
}

export function createServices(options: ServicesOptions = {}) {
  const access = new AccessService();
  return {
    access,
    identity: new IdentityService(access),
    secretScanning: new SecretScanningAlertsService(),
    secretScanningPush: new SecretScanningPushService(new DetectorPool(options.detectorThreads)),
  };
}

export type Services = ReturnType<typeof createServices>;
