/**
 * Recording findings: a new open alert (numbered per repository) or a new location of an existing one,
 * with multi_repo and publicly_leaked derived from the stored data.
 */
import { createHash } from 'node:crypto';
import { DeepPartial, EntityManager, In } from 'typeorm';
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

/** An integer written into SQL text (ids and counts this module computed; anything else is a bug). */
function int(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`expected an integer, got ${n}`);
  return String(n);
}

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

/** A new alert's row for finding `f` (numbered `number`), as every way of recording a finding creates it. */
function newAlertRow(
  repo: RepositoryEntity,
  f: Finding,
  secretHash: string,
  number: number,
  flags: { publiclyLeaked: boolean; multiRepo: boolean },
  now: Date,
): DeepPartial<SecretScanningAlertEntity> {
  const resolvedByBypass = f.bypass && f.bypass.reason !== 'will_fix_later';
  return {
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
    publiclyLeaked: flags.publiclyLeaked,
    multiRepo: flags.multiRepo,
    isBase64Encoded: f.isBase64Encoded ?? false,
    pushProtectionBypassed: Boolean(f.bypass),
    pushProtectionBypassedById: f.bypass?.byId ?? null,
    pushProtectionBypassedAt: f.bypass?.at ?? null,
    assignedToId: null,
    firstLocationId: null,
    locationsCount: 0,
    createdAt: now,
    updatedAt: now,
  };
}

/** A new location's row of alert `alertId` for finding `f` at place `key`. */
function newLocationRow(alertId: number, f: Finding, key: string): DeepPartial<SecretScanningLocationEntity> {
  return {
    alertId,
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
  };
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
      const number = await this.reserveNumbers(db, repo.id, 1);
      // The same secret in another repository of the same owner -> multi_repo on every such alert.
      const siblings = await alerts.find({ where: { ownerId: repo.ownerId, secretHash }, select: { id: true, repositoryId: true } });
      const others = siblings.filter((s) => s.repositoryId !== repo.id);
      const publiclyLeaked = !repo.private || (await this.foundInPublicRepository(db, secretHash));
      alert = await alerts.save(alerts.create(newAlertRow(repo, f, secretHash, number, { publiclyLeaked, multiRepo: others.length > 0 }, now)));
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
    const loc = await locations.save(locations.create(newLocationRow(alert.id, f, key)));
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

  /**
   * Record several findings in one repository, in order: the same rows, numbers and results as recordFinding
   * called for each in turn (test/unit/secret-scanning/record-findings.spec.ts compares them), in a few
   * statements. Everything that only reads comes first; the per-repository rows every new alert writes (the
   * number counter, and the alert totals its insert's trigger updates) are locked last, by one statement each,
   * and held only for the inserts and one update that follow: on PostgreSQL those locks are held until the
   * commit, and a push that took them at its first new secret held every other writer of the repository's
   * alerts for the rest of its transaction (a statement per finding), long enough under load for them to
   * run out of lock_timeout. Must run inside a transaction (`db` is its manager).
   */
  async recordFindings(db: EntityManager, repo: RepositoryEntity, findings: Finding[], now = new Date()): Promise<Array<{ alert: SecretScanningAlertEntity; created: boolean; newLocation: boolean }>> {
    if (findings.length === 0) return [];
    if (findings.length === 1) return [await this.recordFinding(db, repo, findings[0], now)];
    const alerts = db.getRepository(SecretScanningAlertEntity);
    const locations = db.getRepository(SecretScanningLocationEntity);
    const hashes = findings.map((f) => hashSecret(f.secret));
    const distinct = [...new Set(hashes)];
    const byHash = new Map<string, SecretScanningAlertEntity>();
    for (const a of await alerts.find({ where: { repositoryId: repo.id, secretHash: In(distinct) } })) byHash.set(a.secretHash, a);
    const fresh = distinct.filter((h) => !byHash.has(h));
    const keys = findings.map((f) => placeKey(f.location));

    // Reads: the other repositories' alerts of the new secrets (multi_repo), the public ones (publicly_leaked),
    // and the locations the existing alerts already have.
    const others = new Map<string, number[]>();
    const inPublic = new Set<string>();
    if (fresh.length) {
      const siblings = await alerts.find({ where: { ownerId: repo.ownerId, secretHash: In(fresh) }, select: { id: true, repositoryId: true, secretHash: true } });
      for (const s of siblings) if (s.repositoryId !== repo.id) others.set(s.secretHash, [...(others.get(s.secretHash) ?? []), s.id]);
      if (repo.private) {
        const rows: Array<{ h: string }> = await alerts
          .createQueryBuilder('a')
          .innerJoin(RepositoryEntity, 'r', 'r.id = a.repository_id')
          .where('a.secret_hash IN (:...hs)', { hs: fresh })
          .andWhere('r.private = :f', { f: false })
          .select('a.secret_hash', 'h')
          .distinct(true)
          .getRawMany();
        for (const r of rows) inPublic.add(r.h);
      }
    }
    const placed = new Set<string>();
    const existingIds = [...byHash.values()].map((a) => a.id);
    if (existingIds.length) {
      const found = await locations.find({ where: { alertId: In(existingIds), placeKey: In([...new Set(keys)]) }, select: { alertId: true, placeKey: true } });
      for (const l of found) placed.add(`${l.alertId}\u0000${l.placeKey}`);
    }

    // Numbers for the new alerts, in the order their secrets first appear: one counter update for all.
    const created = new Map<string, SecretScanningAlertEntity>();
    if (fresh.length) {
      const last = await this.reserveNumbers(db, repo.id, fresh.length);
      const rows = fresh.map((h, i) =>
        alerts.create(newAlertRow(repo, findings[hashes.indexOf(h)], h, last - fresh.length + 1 + i, { publiclyLeaked: !repo.private || inPublic.has(h), multiRepo: others.has(h) }, now)),
      );
      for (const a of await alerts.save(rows)) {
        created.set(a.secretHash, a);
        byHash.set(a.secretHash, a);
      }
      const otherIds = [...others.values()].flat();
      if (otherIds.length) await alerts.update({ id: In(otherIds), multiRepo: false }, { multiRepo: true, updatedAt: now });
      // Found in a public repository: every alert for these secrets is publicly leaked.
      if (!repo.private) await alerts.update({ secretHash: In(fresh), publiclyLeaked: false }, { publiclyLeaked: true, updatedAt: now });
    }

    // The new locations, each place of an alert once, then each touched alert's count and first commit-form location.
    const out: Array<{ alert: SecretScanningAlertEntity; created: boolean; newLocation: boolean }> = [];
    const pending: Array<{ index: number; row: SecretScanningLocationEntity }> = [];
    const firstFinding = new Set<string>();
    findings.forEach((f, i) => {
      const alert = byHash.get(hashes[i])!;
      const isCreated = created.has(hashes[i]) && !firstFinding.has(hashes[i]);
      firstFinding.add(hashes[i]);
      const place = `${alert.id}\u0000${keys[i]}`;
      out.push({ alert, created: isCreated, newLocation: !placed.has(place) });
      if (placed.has(place)) return;
      placed.add(place);
      pending.push({
        index: i,
        row: locations.create(newLocationRow(alert.id, f, keys[i])),
      });
    });
    if (pending.length) {
      const saved = await locations.save(pending.map((p) => p.row));
      const counts = new Map<number, { alert: SecretScanningAlertEntity; n: number; first: number | null; touchedExisting: boolean }>();
      saved.forEach((loc, k) => {
        const f = findings[pending[k].index];
        const alert = out[pending[k].index].alert;
        const c = counts.get(alert.id) ?? { alert, n: 0, first: null, touchedExisting: !created.has(alert.secretHash) };
        c.n += 1;
        if (c.first === null && (f.location.type === 'commit' || f.location.type === 'wiki_commit')) c.first = loc.id;
        counts.set(alert.id, c);
      });
      const whens = (value: (c: { n: number; first: number | null }) => number | null) =>
        [...counts].map(([id, c]) => `WHEN ${int(id)} THEN ${value(c) === null ? 'NULL' : int(value(c)!)}`).join(' ');
      // Computed in SQL from the rows' current values, as recordFinding does: concurrent findings of an alert each count.
      // (An alert created above already has updated_at = now: setting it on every touched alert is the same.)
      await alerts
        .createQueryBuilder()
        .update()
        .set({
          locationsCount: () => `locations_count + CASE id ${whens((c) => c.n)} END`,
          firstLocationId: () => `COALESCE(first_location_id, CASE id ${whens((c) => c.first)} END)`,
          updatedAt: now,
        })
        .where('id IN (:...ids)', { ids: [...counts.keys()] })
        .execute();
      for (const c of counts.values()) {
        c.alert.locationsCount += c.n;
        if (c.first !== null && c.alert.firstLocationId === null) c.alert.firstLocationId = c.first;
        if (c.touchedExisting) c.alert.updatedAt = now;
      }
    }
    return out;
  }

  /** Takes `n` numbers of a repository's alerts at once (the counter row locked by one update); returns the last. */
  private async reserveNumbers(db: EntityManager, repositoryId: number, n: number): Promise<number> {
    const counters = db.getRepository(SecretScanningAlertCounterEntity);
    await counters.createQueryBuilder().insert().values({ repositoryId, lastNumber: 0 }).orIgnore().execute();
    await counters
      .createQueryBuilder()
      .update()
      .set({ lastNumber: () => `last_number + ${int(n)}` })
      .where('repository_id = :id', { id: repositoryId })
      .execute();
    const row = await counters.findOneOrFail({ where: { repositoryId } });
    return row.lastNumber;
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
