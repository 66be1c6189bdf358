/**
 * Parameters every GitHub-family row may take, each declared ONCE (src/rest/params.ts): the declaration reads
 * the value and documents it in OpenAPI. A domain's own parameters live next to its rows
 * (e.g. secret-scanning.params.ts).
 */
import { headerParam, pathParam } from '../params';
import { API_VERSION } from './version';

export const apiVersion = headerParam('X-Service-Api-Version', {
  description: `The API version (X-GitHub-Api-Version is accepted too). Unversioned requests get ${API_VERSION}; any other value is 400.`,
  schema: { type: 'string', enum: [API_VERSION], default: API_VERSION },
});

export const org = pathParam('org', { description: 'The organization name (case-insensitive).' });
export const owner = pathParam('owner', { description: 'The account owner of the repository (case-insensitive).' });
export const repo = pathParam('repo', { description: 'The name of the repository without the .git extension (case-insensitive).' });
