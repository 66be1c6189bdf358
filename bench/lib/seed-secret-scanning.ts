/**
 * Secret scanning data for the dashboard workload, inserted in bulk on top of the identity seed: alerts
 * spread over the organization's repositories that have secret scanning enabled, numbered per repository
 * in creation order (with secret_scanning_alert_counters), 1-3 commit locations each (some also found in
 * a pull request comment first), first_location_id and locations_count set as the service sets them.
 *
 * The values follow SecretScanningAlertsService's rules: secret types, display names and providers from
 * the detector's catalog; secret_hash = SHA-256 of the secret and unique per repository; place_key as the
 * service computes it; multi_repo on every alert whose secret is also in another repository of the owner;
 * publicly_leaked when the secret is in a public repository; a resolution only on resolved alerts; an
 * assignee only among users with write access to the repository (write/admin collaborators, org admins).
 * created_at is distinct for every alert (whole seconds, so REST's second resolution loses nothing).
 *
 * Rows go in through TypeORM's insert builder, one transaction per chunk of alerts. Deterministic.
 */
import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { MembershipEntity, RepositoryCollaboratorEntity, RepositoryEntity } from '../../entities/identity';
import {
  AlertResolution,
  AlertState,
  AlertValidity,
  LocationType,
  SecretScanningAlertCounterEntity,
  SecretScanningAlertEntity,
  SecretScanningLocationEntity,
} from '../../entities/secret-scanning';
import { SECRET_TYPES, SecretTypeInfo } from '../../src/services/secret-scanning/detector/catalog';
import { insertChunks, prng, SeedResult } from './seed';

export interface SecretScanningSeedOptions {
  alerts: number;
}

export const DEFAULT_SECRET_SCANNING_SEED: SecretScanningSeedOptions = { alerts: 20_000 };

/** What the newest alerts look like, for the workloads' checks against the seed. */
export interface SeededAlert {
  repositoryId: number;
  repositoryName: string;
  number: number;
  state: AlertState;
  secretType: string;
  secretTypeDisplayName: string;
  createdAt: Date;
  assigneeLogin: string | null;
  firstLocation: { path: string; startLine: number; endLine: number; commitSha: string };
}

export interface SecretScanningSeedResult {
  options: SecretScanningSeedOptions;
  alerts: number;
  locations: number;
  /** Repositories of the organization with secret scanning enabled, and how many of them have alerts. */
  enabledRepositories: number;
  repositoriesWithAlerts: number;
  open: number;
  resolved: number;
  assigned: number;
  multiRepo: number;
  publiclyLeaked: number;
  /** Write collaborators added so that every repository with alerts has someone (besides the org admins) to assign. */
  writeCollaboratorsAdded: number;
  /** Alerts the org list shows (secret scanning enabled on the repository): every seeded alert. */
  visibleToOrgList: number;
  /** The NEWEST_KEPT newest alerts, newest first (created_at DESC, id DESC). */
  newest: SeededAlert[];
  chunks: number;
  ms: number;
}

export const NEWEST_KEPT = 100;
/** Alerts per transaction. */
const ALERT_CHUNK = 2_000;

const PATHS = [
  '.env',
  '.env.production',
  'config/settings.py',
  'config/database.yml',
  'src/main/resources/application.yml',
  'deploy/helm/values.yaml',
  'terraform/providers.tf',
  'scripts/deploy.sh',
  'docker-compose.yml',
  '.github/workflows/release.yml',
  'src/config/index.ts',
  'internal/client/client.go',
  'notebooks/exploration.ipynb',
  'test/fixtures/credentials.json',
  'README.md',
  'app/initializers/stripe.rb',
  'k8s/secrets.yaml',
  'src/lib/api.js',
];

/** Secret types by how often they turn up: generic keys and cloud credentials more than the rest. */
const COMMON_TYPES = ['generic_secret', 'aws_access_key_id', 'github_personal_access_token', 'slack_api_token', 'google_api_key', 'rsa_private_key',
  'postgres_connection_string', 'stripe_api_key', 'openai_api_key', 'npm_access_token'];

const RESOLUTIONS: Array<[AlertResolution, number]> = [['revoked', 0.4], ['false_positive', 0.25], ['used_in_tests', 0.2], ['wont_fix', 0.15]];

function weighted<T>(rnd: () => number, items: Array<[T, number]>): T {
  let x = rnd() * items.reduce((s, [, w]) => s + w, 0);
  for (const [v, w] of items) {
    x -= w;
    if (x < 0) return v;
  }
  return items[items.length - 1][0];
}

function hex(rnd: () => number, n: number): string {
  let s = '';
  while (s.length < n) s += Math.floor(rnd() * 0x100000000).toString(16).padStart(8, '0');
  return s.slice(0, n);
}

const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function base62(rnd: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += B62[Math.floor(rnd() * 62)];
  return s;
}

function sha256(s: string): string {
  return createHash('sha256').update(s, 'utf8').digest('hex');
}

/** SecretScanningAlertsService.placeKey, written out (the service keeps it private). */
function placeKey(l: { type: LocationType; commitSha?: string | null; path?: string | null; startLine?: number | null; startColumn?: number | null; endLine?: number | null; endColumn?: number | null; url?: string | null }): string {
  const key =
    l.type === 'commit' || l.type === 'wiki_commit'
      ? [l.type, l.commitSha, l.path, l.startLine, l.startColumn, l.endLine, l.endColumn].join('\u0000')
      : [l.type, l.url].join('\u0000');
  return sha256(key);
}

interface LocationRow {
  type: LocationType;
  placeKey: string;
  path: string | null;
  startLine: number | null;
  endLine: number | null;
  startColumn: number | null;
  endColumn: number | null;
  blobSha: string | null;
  commitSha: string | null;
  url: string | null;
  createdAt: Date;
}

interface AlertRow {
  repositoryId: number;
  ownerId: number;
  number: number;
  state: AlertState;
  resolution: AlertResolution | null;
  resolvedAt: Date | null;
  resolvedById: number | null;
  resolutionComment: string | null;
  secretType: string;
  secretTypeDisplayName: string;
  provider: string | null;
  providerSlug: string | null;
  secret: string;
  secretHash: string;
  validity: AlertValidity;
  publiclyLeaked: boolean;
  multiRepo: boolean;
  isBase64Encoded: boolean;
  pushProtectionBypassed: boolean;
  pushProtectionBypassedById: number | null;
  pushProtectionBypassedAt: Date | null;
  assignedToId: number | null;
  locationsCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export async function seedSecretScanning(
  dataSource: DataSource,
  identity: SeedResult,
  options: SecretScanningSeedOptions = DEFAULT_SECRET_SCANNING_SEED,
): Promise<SecretScanningSeedResult> {
  const started = Date.now();
  const rnd = prng(20_240_917);
  const db = dataSource.manager;
  const orgId = identity.orgId;

  // ---- what the identity seed made: repositories with secret scanning, members, writers ----
  const repos = await db
    .getRepository(RepositoryEntity)
    .createQueryBuilder('r')
    .select(['r.id', 'r.name', 'r.private', 'r.pushProtection'])
    .where('r.owner_id = :o', { o: orgId })
    .andWhere('r.secret_scanning = :on', { on: true })
    .orderBy('r.id', 'ASC')
    .getMany();
  if (repos.length === 0) throw new Error('seed: no repository of the organization has secret scanning enabled (raise BENCH_REPOSITORIES)');
  const members = await db.getRepository(MembershipEntity).find({ where: { organizationId: orgId }, order: { userId: 'ASC' } });
  const admins = members.filter((m) => m.role === 'admin').map((m) => m.userId);
  const others = members.filter((m) => m.role !== 'admin').map((m) => m.userId);
  const logins = new Map<number, string>(
    (await db.query(`SELECT id, login FROM accounts WHERE type = 'User'`) as Array<{ id: number; login: string }>).map((r) => [Number(r.id), r.login]),
  );
  const collaborators = await db.getRepository(RepositoryCollaboratorEntity).find({ select: { repositoryId: true, userId: true, permission: true } });
  const writers = new Map<number, number[]>();
  const collaboratorOf = new Set<string>();
  for (const c of collaborators) {
    collaboratorOf.add(`${c.repositoryId}:${c.userId}`);
    if (c.permission !== 'write' && c.permission !== 'admin') continue;
    const list = writers.get(c.repositoryId) ?? [];
    list.push(c.userId);
    writers.set(c.repositoryId, list);
  }

  // Repositories get alerts unevenly: a few busy ones, a long tail (shuffled so it is not by id).
  const order = repos.map((r) => r);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const pickRepo = () => order[Math.min(order.length - 1, Math.floor(order.length * rnd() ** 1.6))];

  // The team that triages: repositories without a write collaborator get one or two (members of the org),
  // so assignments are spread over people the update rule accepts, not all on the org admin.
  const newCollaborators: Array<{ repositoryId: number; userId: number; permission: 'write' }> = [];
  const ensureWriters = (repoId: number): number[] => {
    let list = writers.get(repoId);
    if (!list || list.length === 0) {
      list = [];
      const n = 1 + Math.floor(rnd() * 2);
      for (let k = 0; k < n && others.length > 0; k++) {
        const userId = others[Math.floor(rnd() * others.length)];
        if (collaboratorOf.has(`${repoId}:${userId}`)) continue;
        collaboratorOf.add(`${repoId}:${userId}`);
        newCollaborators.push({ repositoryId: repoId, userId, permission: 'write' });
        list.push(userId);
      }
      writers.set(repoId, list);
    }
    return list;
  };

  // ---- generate every alert in memory (creation order) ----
  const common = COMMON_TYPES.map((slug) => SECRET_TYPES.find((t) => t.slug === slug)).filter((t): t is SecretTypeInfo => Boolean(t));
  const pickType = () => (rnd() < 0.6 && common.length ? common[Math.floor(rnd() * common.length)] : SECRET_TYPES[Math.floor(rnd() * SECRET_TYPES.length)]);
  const now = Date.now();
  const startMs = Math.floor(now / 1000) * 1000 - options.alerts * 3_000 * 1000; // ~3,000 s apart on average: about 2 years for 20k
  const alerts: AlertRow[] = [];
  const locations: LocationRow[][] = [];
  const numbers = new Map<number, number>();
  const secretsByRepo = new Map<number, Set<string>>();
  const bySecret = new Map<string, AlertRow[]>();
  const repoById = new Map(repos.map((r) => [r.id, r]));
  let t = startMs;
  for (let i = 0; i < options.alerts; i++) {
    t += 1_000 * (1 + Math.floor(rnd() * 5_999)); // strictly increasing whole seconds
    const createdAt = new Date(t);
    const repo = pickRepo();
    const repoSecrets = secretsByRepo.get(repo.id) ?? new Set<string>();
    secretsByRepo.set(repo.id, repoSecrets);
    // ~2%: the same secret as an earlier alert of another repository (multi_repo on both).
    let type: SecretTypeInfo;
    let secret: string;
    const earlier = alerts.length > 0 && rnd() < 0.02 ? alerts[Math.floor(rnd() * alerts.length)] : undefined;
    if (earlier && earlier.repositoryId !== repo.id && !repoSecrets.has(earlier.secret)) {
      type = SECRET_TYPES.find((x) => x.slug === earlier.secretType)!;
      secret = earlier.secret;
    } else {
      type = pickType();
      secret = `${type.slug.split('_')[0]}_${base62(rnd, 36)}_${i}`;
    }
    repoSecrets.add(secret);
    const number = (numbers.get(repo.id) ?? 0) + 1;
    numbers.set(repo.id, number);

    const bypassed = repo.pushProtection && rnd() < 0.05;
    const resolved = rnd() < 0.3;
    const resolution = resolved ? weighted(rnd, RESOLUTIONS) : null;
    const resolvedAt = resolved ? new Date(Math.min(now - 1_000, t + 1_000 * (3_600 + Math.floor(rnd() * 60 * 86_400)))) : null;
    const repoWriters = ensureWriters(repo.id);
    const assignable = [...admins, ...repoWriters];
    const assignee = rnd() < 0.3 && assignable.length ? assignable[Math.floor(rnd() * assignable.length)] : null;
    const validity: AlertValidity =
      resolution === 'revoked' ? (rnd() < 0.9 ? 'inactive' : 'unknown') : weighted(rnd, [['active', 0.3], ['inactive', 0.15], ['unknown', 0.55]] as Array<[AlertValidity, number]>);
    const row: AlertRow = {
      repositoryId: repo.id,
      ownerId: orgId,
      number,
      state: resolved ? 'resolved' : 'open',
      resolution,
      resolvedAt,
      resolvedById: resolved ? assignable[Math.floor(rnd() * assignable.length)] ?? admins[0] ?? null : null,
      resolutionComment: resolved && rnd() < 0.3 ? `Handled in the ${resolution!.replace(/_/g, ' ')} sweep` : null,
      secretType: type.slug,
      secretTypeDisplayName: type.displayName,
      provider: type.provider,
      providerSlug: type.providerSlug,
      secret,
      secretHash: sha256(secret),
      validity,
      publiclyLeaked: false, // below, from every repository that holds the secret
      multiRepo: false,
      isBase64Encoded: rnd() < 0.02,
      pushProtectionBypassed: bypassed,
      pushProtectionBypassedById: bypassed ? (others.length ? others[Math.floor(rnd() * others.length)] : admins[0]) : null,
      pushProtectionBypassedAt: bypassed ? createdAt : null,
      assignedToId: assignee,
      locationsCount: 0,
      createdAt,
      updatedAt: resolvedAt ?? (rnd() < 0.2 ? new Date(Math.min(now - 1_000, t + 1_000 * Math.floor(rnd() * 30 * 86_400))) : createdAt),
    };
    const list = bySecret.get(secret) ?? [];
    list.push(row);
    bySecret.set(secret, list);

    // Locations: sometimes a pull request comment first (so the first location is not the first commit
    // location), then 1-3 commits; first_location_id is the first commit location, as in recordFinding.
    const locs: LocationRow[] = [];
    const found = (k: number) => new Date(t + k * 60_000);
    if (rnd() < 0.05) {
      const url = `https://github.example/${identity.orgLogin}/${repo.name}/pull/${1 + Math.floor(rnd() * 900)}#discussion_r${100000 + i}`;
      locs.push({ type: 'pull_request_comment', placeKey: placeKey({ type: 'pull_request_comment', url }), path: null, startLine: null, endLine: null,
        startColumn: null, endColumn: null, blobSha: null, commitSha: null, url, createdAt: found(0) });
    }
    const commits = weighted(rnd, [[1, 0.6], [2, 0.3], [3, 0.1]] as Array<[number, number]>);
    for (let k = 0; k < commits; k++) {
      const path = PATHS[Math.floor(rnd() * PATHS.length)];
      const startLine = 1 + Math.floor(rnd() * 400);
      const endLine = startLine + (rnd() < 0.85 ? 0 : 1 + Math.floor(rnd() * 3));
      const startColumn = 1 + Math.floor(rnd() * 40);
      const endColumn = startColumn + 20 + Math.floor(rnd() * 40);
      const commitSha = hex(rnd, 40);
      const l = { type: 'commit' as const, path, startLine, endLine, startColumn, endColumn, blobSha: hex(rnd, 40), commitSha, url: null };
      locs.push({ ...l, placeKey: placeKey(l), createdAt: found(locs.length) });
    }
    row.locationsCount = locs.length;
    alerts.push(row);
    locations.push(locs);
  }
  for (const rows of bySecret.values()) {
    const leaked = rows.some((r) => !repoById.get(r.repositoryId)!.private);
    const multi = new Set(rows.map((r) => r.repositoryId)).size > 1;
    for (const r of rows) {
      r.publiclyLeaked = leaked;
      r.multiRepo = multi;
    }
  }

  // ---- insert: one transaction per chunk of alerts ----
  let chunks = 0;
  if (newCollaborators.length) await dataSource.transaction((tx) => insertChunks(tx, RepositoryCollaboratorEntity, newCollaborators));
  for (let from = 0; from < alerts.length; from += ALERT_CHUNK) {
    const to = Math.min(alerts.length, from + ALERT_CHUNK);
    await dataSource.transaction(async (tx: EntityManager) => {
      const [{ m }] = (await tx.query('SELECT COALESCE(MAX(id), 0) AS m FROM secret_scanning_alerts')) as Array<{ m: number | string }>;
      const before = Number(m);
      await insertChunks(tx, SecretScanningAlertEntity, alerts.slice(from, to).map((a) => ({ ...a, firstLocationId: null })));
      const inserted = await tx
        .getRepository(SecretScanningAlertEntity)
        .createQueryBuilder('a')
        .select(['a.id', 'a.repositoryId', 'a.number'])
        .where('a.id > :before', { before })
        .getMany();
      const idOf = new Map(inserted.map((a) => [`${a.repositoryId}:${a.number}`, a.id]));
      if (inserted.length !== to - from) throw new Error(`seed: inserted ${to - from} alerts, read back ${inserted.length}`);
      const locationRows: Array<LocationRow & { alertId: number }> = [];
      for (let i = from; i < to; i++) {
        const id = idOf.get(`${alerts[i].repositoryId}:${alerts[i].number}`);
        if (id === undefined) throw new Error(`seed: alert ${alerts[i].repositoryId}#${alerts[i].number} not read back`);
        for (const l of locations[i]) locationRows.push({ ...l, alertId: id });
      }
      await insertChunks(tx, SecretScanningLocationEntity, locationRows);
      // first_location_id: the alert's first commit-form location (the lowest id, as recordFinding keeps it).
      await tx
        .createQueryBuilder()
        .update(SecretScanningAlertEntity)
        .set({
          firstLocationId: () =>
            `(SELECT MIN(l.id) FROM secret_scanning_locations l WHERE l.alert_id = secret_scanning_alerts.id AND l.type IN ('commit', 'wiki_commit'))`,
        })
        .where('id > :before', { before })
        .execute();
    });
    chunks++;
  }
  await dataSource.transaction((tx) =>
    insertChunks(
      tx,
      SecretScanningAlertCounterEntity,
      [...numbers].map(([repositoryId, lastNumber]) => ({ repositoryId, lastNumber })),
    ),
  );

  // ---- check what went in (cheap, and fails loudly rather than benchmarking inconsistent data) ----
  const [check] = (await db.query(
    `SELECT COUNT(*) AS alerts,
            SUM(CASE WHEN a.first_location_id IS NULL THEN 1 ELSE 0 END) AS no_first,
            SUM(a.locations_count) AS declared,
            (SELECT COUNT(*) FROM secret_scanning_locations l JOIN secret_scanning_alerts x ON x.id = l.alert_id WHERE x.owner_id = ${Number(orgId)}) AS locations,
            (SELECT COUNT(*) FROM secret_scanning_alerts y JOIN secret_scanning_locations f ON f.id = y.first_location_id
              WHERE y.owner_id = ${Number(orgId)} AND f.alert_id = y.id AND f.type = 'commit') AS first_ok
       FROM secret_scanning_alerts a WHERE a.owner_id = ${Number(orgId)}`,
  )) as Array<Record<string, number | string>>;
  const n = (k: string) => Number(check[k]);
  if (n('alerts') !== alerts.length || n('no_first') !== 0 || n('declared') !== n('locations') || n('first_ok') !== alerts.length) {
    throw new Error(`seed: secret scanning data is inconsistent: ${JSON.stringify(check)}`);
  }

  // The newest alerts as the list shows them (created_at DESC, id DESC; created_at is distinct).
  const newest: SeededAlert[] = [];
  for (let i = alerts.length - 1; i >= 0 && newest.length < NEWEST_KEPT; i--) {
    const a = alerts[i];
    const first = locations[i].find((l) => l.type === 'commit')!;
    newest.push({
      repositoryId: a.repositoryId,
      repositoryName: repoById.get(a.repositoryId)!.name,
      number: a.number,
      state: a.state,
      secretType: a.secretType,
      secretTypeDisplayName: a.secretTypeDisplayName,
      createdAt: a.createdAt,
      assigneeLogin: a.assignedToId == null ? null : (logins.get(a.assignedToId) ?? null),
      firstLocation: { path: first.path!, startLine: first.startLine!, endLine: first.endLine!, commitSha: first.commitSha! },
    });
  }

  return {
    options,
    alerts: alerts.length,
    locations: n('locations'),
    enabledRepositories: repos.length,
    repositoriesWithAlerts: numbers.size,
    open: alerts.filter((a) => a.state === 'open').length,
    resolved: alerts.filter((a) => a.state === 'resolved').length,
    assigned: alerts.filter((a) => a.assignedToId != null).length,
    multiRepo: alerts.filter((a) => a.multiRepo).length,
    publiclyLeaked: alerts.filter((a) => a.publiclyLeaked).length,
    writeCollaboratorsAdded: newCollaborators.length,
    visibleToOrgList: alerts.length,
    newest,
    chunks,
    ms: Date.now() - started,
  };
}
