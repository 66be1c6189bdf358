/** The GitHub family's API version: what `X-Service-Api-Version` / `X-GitHub-Api-Version` must say when sent. */
export const API_VERSION = '2026-03-10';
export const API_VERSION_HEADERS = ['x-service-api-version', 'x-github-api-version'];
export const GITHUB_DOCS = 'https://docs.github.com/rest';
