/**
 * The secret scanning OpenAPI document of the GitHub family (served at /openapi/secret-scanning.json),
 * generated from the route rows: which rows it holds, and the named schemas they refer to.
 */
import type { OpenApiDocumentSpec } from '../family';
import { SECRET_SCANNING_SCHEMAS } from './secret-scanning.presenters';
import { API_VERSION } from './version';

export const SECRET_SCANNING_OPENAPI_URL = '/openapi/secret-scanning.json';

export function isSecretScanningPath(path: string): boolean {
  return /^\/(orgs\/\{org\}|repos\/\{owner\}\/\{repo\})\/secret-scanning(\/|$)/.test(path);
}

export const secretScanningOpenApiDocument: OpenApiDocumentSpec = {
  url: SECRET_SCANNING_OPENAPI_URL,
  title: 'Secret scanning REST API (GitHub-compatible)',
  version: API_VERSION,
  description: 'Secret scanning alerts, locations, push protection bypasses and scan history, in the shapes of the GitHub REST API.',
  includes: (r) => isSecretScanningPath(r.path),
  schemas: SECRET_SCANNING_SCHEMAS,
};
