/**
 * Recording findings: a new open alert (numbered per repository) or a new location of an existing one,
 * with multi_repo and publicly_leaked derived from the stored data.
 */
import { createHash } from 'node:crypto';
import { EntityManager, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { RepositoryEntity } from '../../../entities/identity';
import {
  AlertResolution,
  SecretScanningAlertCounterEntity,
  SecretScanningAlertEntity,
  SecretScanningLocationEntity,
} from '../../../entities/secret-scanning';
import type { Finding } from './alert-types';
import { secretTypeBySlug, type DetectedSecret } from './detector';

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

function placeKey(f: Finding['location']): string {
  const key =
    f.type === 'commit' || f.type === 'wiki_commit'
      ? [f.type, f.commitSha, f.path, f.startLine, f.startColumn, f.endLine, f.endColumn].join('\u0000')
      : [f.type, f.url].join('\u0000');
  return createHash('sha256').update(key).digest('hex');
}

export class SecretScanningFindingService {
  /**
   * Record one finding in a repository: a new open alert (numbered per repository), or a new location of
   * the existing alert for the same secret. Derives multi_repo and publicly_leaked from real data.
   * Must run inside a transaction (`db` is its manager). Returns the alert and whether it is new.
   */
  async recordFinding(db: EntityManager, repo: RepositoryEntity, f: Finding, now = new Date()): Promise<{ alert: SecretScanningAlertEntity; created: boolean; newLocation: boolean }> {
    const alerts = db.getRepository(SecretScanningAlertEntity);
    const locations = db.getRepository(SecretScanningLocationEntity);
    const secretHash = hashSecret(f.secret);
    let alert = await alerts.findOne({ where: { repositoryId: repo.id, secretHash } });
    let created = false;
    if (!alert) {
      const number = await this.nextNumber(db, repo.id);
      // The same secret in another repository of the same owner -> multi_repo on every such alert.
      const siblings = await alerts.find({ where: { ownerId: repo.ownerId, secretHash }, select: { id: true, repositoryId: true } });
      const others = siblings.filter((s) => s.repositoryId !== repo.id);
      const publiclyLeaked = !repo.private || (await this.foundInPublicRepository(db, secretHash));
      const resolvedByBypass = f.bypass && f.bypass.reason !== 'will_fix_later';
      alert = await alerts.save(
        alerts.create({
          repositoryId: repo.id,
          ownerId: repo.ownerId,
          number,
          state: resolvedByBypass ? 'resolved' : 'open',
          resolution: resolvedByBypass ? (f.bypass!.reason as AlertResolution) : null,
          resolvedAt: resolvedByBypass ? now : null,
          resolvedById: resolvedByBypass ? f.bypass!.byId : null,
          resolutionComment: null,
          secretType: f.secretType,
          secretTypeDisplayName: f.secretTypeDisplayName,
          provider: f.provider,
          providerSlug: f.providerSlug,
          secret: f.secret,
          secretHash,
          validity: 'unknown',
          publiclyLeaked,
          multiRepo: others.length > 0,
          isBase64Encoded: f.isBase64Encoded ?? false,
          pushProtectionBypassed: Boolean(f.bypass),
          pushProtectionBypassedById: f.bypass?.byId ?? null,
          pushProtectionBypassedAt: f.bypass?.at ?? null,
          assignedToId: null,
          firstLocationId: null,
          locationsCount: 0,
          createdAt: now,
          updatedAt: now,
        }),
      );
      created = true;
      if (others.length) await alerts.update({ id: In(others.map((o) => o.id)), multiRepo: false }, { multiRepo: true, updatedAt: now });
      if (!repo.private) {
        // Found in a public repository: every alert for this secret is publicly leaked.
        await alerts.update({ secretHash, publiclyLeaked: false }, { publiclyLeaked: true, updatedAt: now });
      }
    }
    const key = placeKey(f.location);
    const existing = await locations.findOne({ where: { alertId: alert.id, placeKey: key } });
    if (existing) return { alert, created, newLocation: false };
    const loc = await locations.save(
      locations.create({
        alertId: alert.id,
        type: f.location.type,
        placeKey: key,
        path: f.location.path ?? null,
        startLine: f.location.startLine ?? null,
        endLine: f.location.endLine ?? null,
        startColumn: f.location.startColumn ?? null,
        endColumn: f.location.endColumn ?? null,
        blobSha: f.location.blobSha ?? null,
        commitSha: f.location.commitSha ?? null,
        url: f.location.url ?? null,
      }),
    );
    // Computed in SQL from the row's current values, not from the (possibly stale) alert read above:
    // concurrent findings of the same alert each count.
    const set: QueryDeepPartialEntity<SecretScanningAlertEntity> = { locationsCount: () => 'locations_count + 1' };
    // first_location_detected is the first commit-form location.
    const commitForm = f.location.type === 'commit' || f.location.type === 'wiki_commit';
    if (commitForm) set.firstLocationId = () => 'COALESCE(first_location_id, :firstLocationId)';
    if (!created) set.updatedAt = now;
    await alerts.createQueryBuilder().update().set(set).where('id = :id', { id: alert.id }).setParameter('firstLocationId', loc.id).execute();
    // The returned entity reflects this finding (callers use its id and number; the row has the counts).
    alert.locationsCount += 1;
    if (commitForm && alert.firstLocationId === null) alert.firstLocationId = loc.id;
    if (!created) alert.updatedAt = now;
    return { alert, created, newLocation: true };
  }

  private async foundInPublicRepository(db: EntityManager, secretHash: string): Promise<boolean> {
    const row = await db
      .getRepository(SecretScanningAlertEntity)
      .createQueryBuilder('a')
      .innerJoin(RepositoryEntity, 'r', 'r.id = a.repository_id')
      .where('a.secret_hash = :h', { h: secretHash })
      .andWhere('r.private = :f', { f: false })
      .select('a.id')
      .limit(1)
      .getRawOne();
    return Boolean(row);
  }

  /** Next alert number of a repository, never reused (row-locked counter; SQLite serialises writers). */
  private async nextNumber(db: EntityManager, repositoryId: number): Promise<number> {
    const counters = db.getRepository(SecretScanningAlertCounterEntity);
    await counters.createQueryBuilder().insert().values({ repositoryId, lastNumber: 0 }).orIgnore().execute();
    await counters
      .createQueryBuilder()
      .update()
      .set({ lastNumber: () => 'last_number + 1' })
      .where('repository_id = :id', { id: repositoryId })
      .execute();
    const row = await counters.findOneOrFail({ where: { repositoryId } });
    return row.lastNumber;
  }
}

/** The finding of a detected secret at `location`, named as the secret type catalog names it. */
export function findingFor(d: DetectedSecret, location: Finding['location']): Finding {
  const t = secretTypeBySlug(d.secretType);
  return {
    secretType: d.secretType,
    secretTypeDisplayName: t?.displayName ?? d.secretType,
    provider: t?.provider ?? null,
    providerSlug: t?.providerSlug ?? null,
    secret: d.secret,
    isBase64Encoded: Boolean(d.isBase64Encoded),
    location,
  };
}

/** Collects the alerts a run touched, once each, in order of first touch. */
export class TouchedAlerts {
  private readonly byId = new Map<number, { number: number; created: boolean }>();
  add(r: { alert: { id: number; number: number }; created: boolean; newLocation: boolean }): void {
    if (!r.created && !r.newLocation) return;
    const seen = this.byId.get(r.alert.id);
    if (seen) seen.created ||= r.created;
    else this.byId.set(r.alert.id, { number: r.alert.number, created: r.created });
  }
  get list(): Array<{ number: number; created: boolean }> {
    return [...this.byId.values()];
  }
}
