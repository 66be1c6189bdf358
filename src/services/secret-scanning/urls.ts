/**
 * The URLs an alert and its locations carry, built once for both transports (REST presenters and GraphQL
 * resolvers) from PUBLIC_URL, the way GitHub builds them:
 *   alert   {base}/repos/{o}/{r}/secret-scanning/alerts/{n}   (+ /locations), web {base}/{o}/{r}/security/secret-scanning/{n}
 *   commit  {base}/repos/{o}/{r}/git/blobs/{sha}, {base}/repos/{o}/{r}/git/commits/{sha}
 *   wiki    {base}/{o}/{r}/wiki/{page}/{sha}, {base}/{o}/{r}/wiki/_compare/{sha}
 */
import type { SecretScanningLocationEntity } from '../../../entities/secret-scanning';

export interface RepoName {
  owner: string;
  name: string;
}

export function repositoryUrls(base: string, r: RepoName): { api: string; web: string } {
  const full = `${r.owner}/${r.name}`;
  return { api: `${base}/repos/${full}`, web: `${base}/${full}` };
}

export function alertUrls(base: string, r: RepoName, number: number): { url: string; htmlUrl: string; locationsUrl: string } {
  const { api, web } = repositoryUrls(base, r);
  const url = `${api}/secret-scanning/alerts/${number}`;
  return { url, htmlUrl: `${web}/security/secret-scanning/${number}`, locationsUrl: `${url}/locations` };
}

/** URLs of a commit-form location: git blob and commit for `commit`, wiki page and compare view for `wiki_commit`. */
export function commitLocationUrls(
  base: string,
  r: RepoName,
  l: Pick<SecretScanningLocationEntity, 'type' | 'path' | 'blobSha' | 'commitSha' | 'url'>,
): { blobUrl: string | null; commitUrl: string | null; pageUrl: string | null } {
  const { api, web } = repositoryUrls(base, r);
  if (l.type === 'wiki_commit') {
    const page = (l.path ?? '').replace(/\.[^./]+$/, '');
    return {
      blobUrl: null,
      commitUrl: l.commitSha ? `${web}/wiki/_compare/${l.commitSha}` : null,
      pageUrl: l.url ?? (l.commitSha && page ? `${web}/wiki/${page}/${l.commitSha}` : null),
    };
  }
  return {
    blobUrl: l.blobSha ? `${api}/git/blobs/${l.blobSha}` : null,
    commitUrl: l.commitSha ? `${api}/git/commits/${l.commitSha}` : null,
    pageUrl: null,
  };
}
