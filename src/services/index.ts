/**
 * The service registry. Services are stateless (all request state comes in the context), so one set
 * serves every request of an app instance.
 */
import { AccessService } from './identity/access.service';
import { IdentityService } from './identity/identity.service';
import { SecretScanningAlertsService } from './secret-scanning/alerts.service';
import { SecretScanningPushService } from './secret-scanning/push.service';

export function createServices() {
  const access = new AccessService();
  return {
    access,
    identity: new IdentityService(access),
    secretScanning: new SecretScanningAlertsService(),
    secretScanningPush: new SecretScanningPushService(),
  };
}

export type Services = ReturnType<typeof createServices>;
