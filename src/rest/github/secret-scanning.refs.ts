/**
 * Loading what secret scanning alert answers refer to (users, first locations, repositories and their
 * owners), in batches through the request's loaders. Routes call it in their `handle` step, so presenters
 * only shape data and never query.
 */
import type { SecretScanningAlertEntity } from '../../../entities/secret-scanning';
import type { RequestContext } from '../../context';
import { NotFoundError } from '../../errors/app-error';
import type { RepositoryEntity } from '../../../entities/identity';
import { loadAll } from '../../loaders/loader';
import type { AlertRefs, RepoRef } from './secret-scanning.presenters';

function present<T>(v: T | null | Error | undefined): v is T {
  return v !== null && v !== undefined && !(v instanceof Error);
}

/** Load everything the alerts refer to; `known` repositories (and their owners) are not loaded again. */
export async function loadAlertRefs(ctx: RequestContext, alerts: SecretScanningAlertEntity[], known: RepoRef[] = []): Promise<AlertRefs> {
  const repos = new Map<number, RepoRef>(known.map((k) => [k.repo.id, k]));
  const userIds = new Set<number>();
  const locationIds = new Set<number>();
  const repoIds = new Set<number>();
  for (const a of alerts) {
    for (const id of [a.resolvedById, a.pushProtectionBypassedById, a.assignedToId]) if (id != null) userIds.add(id);
    if (a.firstLocationId != null) locationIds.add(a.firstLocationId);
    if (!repos.has(a.repositoryId)) repoIds.add(a.repositoryId);
  }
  const [users, locations, repoRows] = await Promise.all([
    loadAll(ctx.loaders.accountById, [...userIds]),
    loadAll(ctx.loaders.locationById, [...locationIds]),
    loadAll(ctx.loaders.repositoryById, [...repoIds]),
  ]);
  const loadedRepos = repoRows.filter(present);
  const owners = await loadAll(ctx.loaders.accountById, [...new Set(loadedRepos.map((r) => r.ownerId))]);
  const ownerById = new Map(owners.filter(present).map((o) => [o.id, o]));
  for (const r of loadedRepos) {
    const owner = ownerById.get(r.ownerId);
    if (owner) repos.set(r.id, { repo: r, owner });
  }
  return {
    users: new Map(users.filter(present).map((u) => [u.id, u])),
    locations: new Map(locations.filter(present).map((l) => [l.id, l])),
    repos,
  };
}


/** A repository with its owner (through the request's loaders). */
export async function repoRef(ctx: RequestContext, repo: RepositoryEntity): Promise<RepoRef> {
  const owner = await ctx.loaders.accountById.load(repo.ownerId);
  if (!owner) throw new NotFoundError();
  return { repo, owner };
}
