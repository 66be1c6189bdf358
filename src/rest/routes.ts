import { githubIdentityRoutes } from './github/identity.routes';
import { githubSecretScanningRoutes } from './github/secret-scanning.routes';
import type { RestRoute } from './route-table';

/** Every REST route of every family. */
export const REST_ROUTES: RestRoute<any, any>[] = [...githubIdentityRoutes, ...githubSecretScanningRoutes];
