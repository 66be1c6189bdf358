/**
 * The User-Agent the client sends (`user-agent` and the signed `x-amz-user-agent`): the client's name and version,
 * the metadata the AWS SDKs send (ua/2.1, os, lang, md/nodejs, api/<service>#<version>), `app/<app_id>` when an
 * app id is configured, then the `ua_append` values.
 */
import * as os from 'node:os';

/** The package's version (test/unit/workflow-client/package.spec.ts keeps it equal to package.json's). */
export const CLIENT_VERSION = '0.1.0';

/** `ua_append` entries with spaces and other separators replaced, as the SDKs do. */
const clean = (s: string) => s.replace(/[^!#$%&'*+\-.^_`|~\w/]/g, '-');

export function userAgent(opts: { serviceId: string; apiVersion: string; appId?: string; append: string[] }): string {
  const parts = [
    `graphql-domain-gateway-workflow-client/${CLIENT_VERSION}`,
    'ua/2.1',
    `os/${clean(os.platform())}#${clean(os.release())}`,
    'lang/js',
    `md/nodejs#${process.versions.node}`,
    `api/${clean(opts.serviceId.toLowerCase())}#${opts.apiVersion}`,
  ];
  if (opts.appId) parts.push(`app/${clean(opts.appId)}`);
  for (const a of opts.append) if (a) parts.push(a);
  return parts.join(' ');
}
