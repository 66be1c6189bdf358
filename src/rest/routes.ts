import { githubIdentityRoutes } from './github/identity.routes';
import type { RestRoute } from './route-table';

/** Every REST route of every family. */
export const REST_ROUTES: RestRoute<any, any>[] = [...githubIdentityRoutes];
