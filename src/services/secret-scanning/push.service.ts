/**
 * Where alerts come from: pushes and other content scanned with the detector (secretlint preset + our
 * rules), push protection (placeholders, bypasses) and rescans (scan history; the runs in rescan-runner.ts).
 *
 * Decisions (see also the comments on each method):
 * - Secret scanning off on the repository: a push or content submission is accepted (access is still
 *   checked) but nothing is scanned or stored: no alert, no content, no scan entry, never blocked.
 * - Push protection on: a push with any secret not covered by an active bypass of this pusher for this
 *   secret in this repository is blocked as a whole. Only placeholders are stored (one per uncovered
 *   occurrence); no content, alert, location or scan. Secrets covered by a bypass do not get placeholders.
 * - A push that is not blocked is recorded in one transaction: every file's content (for rescans), a
 *   finding per secret occurrence (alerts are per secret and repository, locations are de-duplicated),
 *   and one completed incremental `git` scan (started_at stays null, as incremental entries have none).
 * - Files whose content contains a NUL character are treated as binary: not scanned and not stored
 *   (GitHub does not scan binary files; PostgreSQL text cannot hold NUL either).
 * - Push protection applies to commits only; issue, discussion and pull request content is never blocked.
 */
import { createHash, randomBytes } from 'node:crypto';
import { EntityManager, In, IsNull } from 'typeorm';
import { RepositoryEntity } from '../../../entities/identity';
import {
  LocationType,
  PushProtectionPlaceholderEntity,
  ScanKind,
  SecretScanningContentEntity,
  SecretScanningScanEntity,
  URL_LOCATION_TYPES,
} from '../../../entities/secret-scanning';
import { can } from '../../auth/permissions';
import { RequestContext, withTransaction } from '../../context';
import { lockedFindOne } from '../../db/transaction';
import { FieldError, ForbiddenError, NotFoundError, UnauthenticatedError, ValidationError } from '../../errors/app-error';
import { lookupKey } from '../common/decode';
import { parseFullName } from '../identity/identity.service';
import type { AccessService } from '../identity/access.service';
import type { IdentityService } from '../identity/identity.service';
import type { SecretScanningAlertAccess } from './alert-access';
import { findingFor, hashSecret, TouchedAlerts, type SecretScanningFindingService } from './alert-findings';
import { DetectorPool } from './detector/pool';
import { SECRET_SCANNING_CODES as CODES } from './error-codes';
import { RescanRunner } from './rescan-runner';
import type { SecretScanningScanService } from './scans';

export interface PushFileInput {
  path: string;
  content: string;
}
export interface PushCommitInput {
  sha: string;
  files: PushFileInput[];
}
export interface SubmitPushInput {
  /** owner/name */
  repository: string;
  ref: string;
  commits: PushCommitInput[];
}
export interface PlaceholderResult {
  placeholderId: string;
  secretType: string;
  path: string;
  commitSha: string;
  startLine: number;
  endLine: number;
  startColumn: number;
  endColumn: number;
  expireAt: Date;
}
export interface SubmitPushResult {
  blocked: boolean;
  placeholders: PlaceholderResult[];
  /**
   * Alerts created or given a new location by this push; null when the pusher may not read the
   * repository's secret scanning alerts (they learn only `blocked` and the placeholders).
   */
  alerts: Array<{ number: number; created: boolean }> | null;
  repository: RepositoryEntity;
}
export interface SubmitContentInput {
  repository: string;
  /** a non-commit location type: issue_title, issue_body, issue_comment, discussion_*, pull_request_* */
  locationType: string;
  url: string;
  content: string;
}
export interface BypassInput {
  reason: unknown;
  placeholderId: unknown;
}
export interface BypassResult {
  reason: 'false_positive' | 'used_in_tests' | 'will_fix_later';
  expireAt: Date;
  tokenType: string;
}
export interface StartScanInput {
  repository: string;
  kind: string;
  /**
   * A workflow task's attempt key: the same key finds the scan it started (completed: answered as is; still running
   * here: awaited) instead of starting another; a scan of that key that failed or was interrupted is replaced.
   */
  attemptKey?: string;
}
export interface StartScanResult {
  /** The scan as recorded when it started: in_progress. */
  scan: SecretScanningScanEntity;
  kind: ScanKind;
  repository: RepositoryEntity;
  /** Settles (never rejects) with the scan as it ended: completed, or failed (error or shutdown). */
  done: Promise<SecretScanningScanEntity>;
}

export const BYPASS_REASONS = ['false_positive', 'used_in_tests', 'will_fix_later'] as const;
export type BypassReason = (typeof BYPASS_REASONS)[number];

/** Location types content other than commits can be submitted as (everything but commit and wiki_commit). */
export const CONTENT_LOCATION_TYPES = URL_LOCATION_TYPES;

/** Scan kinds startScan accepts (incremental scans are recorded by pushes and submissions only). */
export const STARTABLE_SCAN_KINDS = ['backfill', 'pattern_update', 'custom_pattern_backfill', 'generic_secrets_backfill'] as const;

export const PUSH_LIMITS = {
  commits: 100,
  files: 1000,
  /** total UTF-8 bytes of all file contents of one push */
  bytes: 5 * 1024 * 1024,
  path: 1024,
  ref: 1024,
  url: 2048,
} as const;

/** How long a placeholder may be bypassed, and how long a bypassed secret may then be pushed (GitHub: 3 hours). */
export const PLACEHOLDER_TTL_MS = 3 * 60 * 60 * 1000;
export const BYPASS_TTL_MS = 3 * 60 * 60 * 1000;

const SHA_RE = /^[0-9a-f]{7,64}$/i;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Content rows per INSERT statement (8 parameters each: well under SQLite's and PostgreSQL's limits). */
const CONTENT_INSERT_ROWS = 200;
/** A 27-character base62 id, like GitHub's placeholder ids (`2k4dM4tseyC5lPIsjl5emX9sPNk`). */
export function newPlaceholderId(length = 27): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += BASE62[b % 62]; // rejection sampling keeps it uniform
    }
  }
  return out;
}

/** The git blob id of a content: sha1("blob <byte length>\0<content>"). */
export function gitBlobSha(content: string): string {
  return createHash('sha1').update(`blob ${Buffer.byteLength(content, 'utf8')}\0`).update(content, 'utf8').digest('hex');
}

function isBinary(content: string): boolean {
  return content.includes('\u0000');
}

function validation(message: string, field: string, code = 'invalid', resource = 'Push'): ValidationError {
  return new ValidationError(message, { fieldErrors: [{ resource, field, code, message }] });
}

function repositoryName(value: unknown): { owner: string; name: string } {
  if (typeof value !== 'string' || value === '') throw validation('repository is required, written owner/name', 'repository', 'missing_field');
  return parseFullName(value);
}

function scanTypeOf(locationType: string): 'git' | 'issue' | 'discussion' {
  if (locationType === 'commit' || locationType === 'wiki_commit') return 'git';
  return locationType.startsWith('discussion_') ? 'discussion' : 'issue';
}

interface Occurrence {
  commitSha: string;
  path: string;
  blobSha: string;
  secretType: string;
  secret: string;
  secretHash: string;
  isBase64Encoded: boolean;
  startLine: number;
  endLine: number;
  startColumn: number;
  endColumn: number;
}


export class SecretScanningPushService {
  /** Background rescans of this process. */
  private readonly rescans: RescanRunner;

  /** `detector` runs detection in worker threads; close() ends them. */
  constructor(
    private readonly deps: {
      access: AccessService;
      identity: IdentityService;
      alertAccess: SecretScanningAlertAccess;
      findings: SecretScanningFindingService;
      scans: SecretScanningScanService;
    },
    private readonly detector: DetectorPool = new DetectorPool(),
  ) {
    this.rescans = new RescanRunner(detector, deps.findings);
  }

  // ------------------------------------------------------------------ access

  /**
   * The repository a push (or content submission) goes to, looked up through the request's loader.
   * Invisible or missing -> 404; anonymous -> 401; visible without push rights (write permission plus
   * `repo`/`public_repo` or contents:write) -> 403.
   */
  private async pushTarget(
    ctx: RequestContext,
    owner: string,
    name: string,
  ): Promise<{ repo: RepositoryEntity; pusherId: number; readsAlerts: boolean }> {
    const viewer = ctx.viewer;
    const found = await this.deps.identity.findRepository(ctx, owner, name);
    const { repo, facts } = await this.deps.access.requireRepository(ctx, found, 'repository.push', {
      roleDenied: () =>
        viewer.kind !== 'user'
          ? new UnauthenticatedError()
          : viewer.credential.type === 'fine_grained'
            ? new ForbiddenError('Resource not accessible by personal access token')
            : new ForbiddenError(`Permission to ${owner}/${found!.name} denied to ${viewer.user.login}.`),
    });
    if (viewer.kind !== 'user') throw new UnauthenticatedError(); // can() lets only users push: for the type
    // Only a pusher who may read the alerts is told which alerts the push touched (else an oracle for
    // "is this secret already an alert here").
    return { repo, pusherId: viewer.user.id, readsAlerts: can(viewer, 'secret_scanning.alerts.read', facts) };
  }

  // ------------------------------------------------------------------ pushes

  private validatePush(input: SubmitPushInput): { owner: string; name: string } {
    if (!input || typeof input !== 'object') throw validation('the push must be an object', 'push');
    const target = repositoryName(input.repository);
    if (typeof input.ref !== 'string' || input.ref.trim() === '') throw validation('ref is required (e.g. refs/heads/main)', 'ref', 'missing_field');
    if (input.ref.length > PUSH_LIMITS.ref || input.ref.includes('\u0000')) throw validation(`ref must be at most ${PUSH_LIMITS.ref} characters`, 'ref');
    if (!Array.isArray(input.commits) || input.commits.length === 0) throw validation('commits must be a non-empty list', 'commits', 'missing_field');
    if (input.commits.length > PUSH_LIMITS.commits) {
      throw validation(`a push may contain at most ${PUSH_LIMITS.commits} commits (got ${input.commits.length})`, 'commits');
    }
    let files = 0;
    let bytes = 0;
    input.commits.forEach((c, i) => {
      if (!c || typeof c !== 'object') throw validation(`commits[${i}] must be an object`, `commits[${i}]`);
      if (typeof c.sha !== 'string' || !SHA_RE.test(c.sha)) {
        throw validation(`commits[${i}].sha must be 7 to 64 hexadecimal characters (got ${JSON.stringify(c.sha)})`, `commits[${i}].sha`);
      }
      if (!Array.isArray(c.files)) throw validation(`commits[${i}].files must be a list`, `commits[${i}].files`, 'missing_field');
      c.files.forEach((f, j) => {
        const at = `commits[${i}].files[${j}]`;
        if (!f || typeof f !== 'object') throw validation(`${at} must be an object`, at);
        if (typeof f.path !== 'string' || f.path === '') throw validation(`${at}.path must be a non-empty string`, `${at}.path`, 'missing_field');
        if (f.path.length > PUSH_LIMITS.path) throw validation(`${at}.path must be at most ${PUSH_LIMITS.path} characters`, `${at}.path`);
        if (f.path.includes('\u0000')) throw validation(`${at}.path must not contain NUL characters`, `${at}.path`);
        if (typeof f.content !== 'string') throw validation(`${at}.content must be a string`, `${at}.content`, 'missing_field');
        bytes += Buffer.byteLength(f.content, 'utf8');
      });
      files += c.files.length;
    });
    if (files > PUSH_LIMITS.files) throw validation(`a push may contain at most ${PUSH_LIMITS.files} files (got ${files})`, 'commits');
    if (bytes > PUSH_LIMITS.bytes) {
      throw validation(`a push may contain at most ${PUSH_LIMITS.bytes} bytes of file content (got ${bytes})`, 'commits');
    }
    return target;
  }

  /**
   * Scan a push. Blocked (push protection on and a secret not covered by an active bypass of this pusher):
   * placeholders only. Otherwise content, findings and one incremental git scan, in one transaction.
   */
  async submitPush(ctx: RequestContext, input: SubmitPushInput): Promise<SubmitPushResult> {
    const { owner, name } = this.validatePush(input);
    const { repo, pusherId, readsAlerts } = await this.pushTarget(ctx, owner, name);
    const told = <T>(alerts: T[]): T[] | null => (readsAlerts ? alerts : null);
    if (!repo.secretScanning) return { blocked: false, placeholders: [], alerts: told([]), repository: repo };

    // Scan first, outside any transaction, in the detector's worker threads.
    const files: Array<{ commitSha: string; path: string; content: string; blobSha: string }> = [];
    const occurrences: Occurrence[] = [];
    for (const c of input.commits) {
      const commitSha = c.sha.toLowerCase();
      for (const f of c.files) {
        if (isBinary(f.content)) continue;
        files.push({ commitSha, path: f.path, content: f.content, blobSha: gitBlobSha(f.content) });
      }
    }
    const detected = await this.detector.detect(files.map((f) => ({ content: f.content, path: f.path })));
    files.forEach((f, i) => {
      for (const d of detected[i]) {
        occurrences.push({
          commitSha: f.commitSha,
          path: f.path,
          blobSha: f.blobSha,
          secretType: d.secretType,
          secret: d.secret,
          secretHash: hashSecret(d.secret),
          isBase64Encoded: Boolean(d.isBase64Encoded),
          startLine: d.startLine,
          endLine: d.endLine,
          startColumn: d.startColumn,
          endColumn: d.endColumn,
        });
      }
    });

    const now = new Date();
    // Active bypasses of this pusher for these secrets in this repository (latest bypass per secret).
    const bypasses = new Map<string, PushProtectionPlaceholderEntity>();
    if (repo.pushProtection && occurrences.length) {
      const hashes = [...new Set(occurrences.map((o) => o.secretHash))];
      const rows = await ctx.db.getRepository(PushProtectionPlaceholderEntity).find({
        where: { repositoryId: repo.id, pusherId, secretHash: In(hashes) },
        order: { bypassedAt: 'ASC', id: 'ASC' },
      });
      for (const p of rows) {
        if (p.bypassedAt && p.bypassReason && p.bypassExpireAt && p.bypassExpireAt.getTime() > now.getTime()) bypasses.set(p.secretHash, p);
      }
      const uncovered = occurrences.filter((o) => !bypasses.has(o.secretHash));
      if (uncovered.length) return { ...(await this.block(ctx, repo, pusherId, uncovered, now)), alerts: told([]) };
    }

    const alerts = await withTransaction(ctx, async (tx) => {
      const touched = new TouchedAlerts();
      await this.storeContents(
        tx.db,
        repo.id,
        files.map((f) => ({ locationType: 'commit', commitSha: f.commitSha, path: f.path, blobSha: f.blobSha, url: null, pusherId, content: f.content })),
      );
      const usedBypasses = new Map<number, number>(); // placeholder id -> alert id
      const findings = occurrences.map((o) => {
        const bypass = bypasses.get(o.secretHash);
        const finding = findingFor(o, {
          type: 'commit',
          path: o.path,
          startLine: o.startLine,
          endLine: o.endLine,
          startColumn: o.startColumn,
          endColumn: o.endColumn,
          blobSha: o.blobSha,
          commitSha: o.commitSha,
        });
        if (bypass) finding.bypass = { byId: bypass.pusherId, at: bypass.bypassedAt!, reason: bypass.bypassReason! };
        return finding;
      });
      // All of the push's findings at once: the repository's alert counter is locked for a few statements, not for the
      // rest of the transaction (see recordFindings).
      const recorded = await this.deps.findings.recordFindings(tx.db, repo, findings, now);
      recorded.forEach((r, i) => {
        touched.add(r);
        const bypass = bypasses.get(occurrences[i].secretHash);
        if (bypass) usedBypasses.set(bypass.id, r.alert.id);
      });
      for (const [placeholderId, alertId] of usedBypasses) {
        await tx.db.getRepository(PushProtectionPlaceholderEntity).update({ id: placeholderId, alertId: IsNull() }, { alertId });
      }
      await this.deps.scans.recordScan(tx.db, {
        repositoryId: repo.id,
        kind: 'incremental',
        type: 'git',
        status: 'completed',
        startedAt: null,
        completedAt: now,
        alertsFound: touched.list.length,
      });
      return touched.list;
    });
    return { blocked: false, placeholders: [], alerts: told(alerts), repository: repo };
  }

  /** A blocked push: one placeholder per uncovered occurrence, nothing else. */
  private async block(ctx: RequestContext, repo: RepositoryEntity, pusherId: number, uncovered: Occurrence[], now: Date): Promise<SubmitPushResult> {
    const expireAt = new Date(now.getTime() + PLACEHOLDER_TTL_MS);
    const placeholders = uncovered.map((o) => ({
      placeholderId: newPlaceholderId(),
      repositoryId: repo.id,
      pusherId,
      secretHash: o.secretHash,
      secretType: o.secretType,
      path: o.path,
      commitSha: o.commitSha,
      startLine: o.startLine,
      endLine: o.endLine,
      startColumn: o.startColumn,
      endColumn: o.endColumn,
      expireAt,
      bypassReason: null,
      bypassedAt: null,
      bypassExpireAt: null,
      alertId: null,
    }));
    await withTransaction(ctx, async (tx) => {
      const rows = tx.db.getRepository(PushProtectionPlaceholderEntity);
      for (const p of placeholders) await rows.insert(p);
    });
    return {
      blocked: true,
      placeholders: placeholders.map((p) => ({
        placeholderId: p.placeholderId,
        secretType: p.secretType,
        path: p.path,
        commitSha: p.commitSha,
        startLine: p.startLine,
        endLine: p.endLine,
        startColumn: p.startColumn,
        endColumn: p.endColumn,
        expireAt,
      })),
      alerts: [],
      repository: repo,
    };
  }

  /** Store contents for rescans, skipping the ones this repository already holds (a re-pushed commit). */
  private async storeContents(db: EntityManager, repositoryId: number, rows: Array<Omit<SecretScanningContentEntity, 'id' | 'repositoryId' | 'createdAt'>>): Promise<void> {
    const contents = db.getRepository(SecretScanningContentEntity);
    const keyOf = (r: { locationType: string; commitSha: string | null; path: string | null; blobSha: string | null; url: string | null }) =>
      [r.locationType, r.commitSha, r.path, r.blobSha, r.url].join('\u0000');
    const existing = new Set<string>();
    const commitShas = [...new Set(rows.map((r) => r.commitSha).filter((s): s is string => s !== null))];
    if (commitShas.length) {
      const found = await contents.find({
        where: { repositoryId, commitSha: In(commitShas) },
        select: { id: true, locationType: true, commitSha: true, path: true, blobSha: true, url: true },
      });
      for (const f of found) existing.add(keyOf(f));
    }
    const fresh: Array<Omit<SecretScanningContentEntity, 'id' | 'createdAt'>> = [];
    for (const r of rows) {
      const key = keyOf(r);
      if (existing.has(key)) continue;
      existing.add(key);
      fresh.push({ ...r, repositoryId });
    }
    // Multi-row inserts: one statement per CONTENT_INSERT_ROWS rows, not one per file, and no read-back of
    // generated columns (on SQLite every statement runs in the main thread; 1,000 single inserts held the
    // event loop for ~0.25 s).
    for (let i = 0; i < fresh.length; i += CONTENT_INSERT_ROWS) {
      await contents.createQueryBuilder().insert().values(fresh.slice(i, i + CONTENT_INSERT_ROWS)).updateEntity(false).execute();
    }
  }

  // ------------------------------------------------------------------ other content

  /**
   * Scan issue, discussion or pull request content. Needs the same access as a push. Never blocked
   * (push protection is for commits); secret scanning off -> nothing stored.
   */
  async submitContent(
    ctx: RequestContext,
    input: SubmitContentInput,
  ): Promise<{ alerts: Array<{ number: number; created: boolean }> | null; repository: RepositoryEntity }> {
    if (!input || typeof input !== 'object') throw validation('the submission must be an object', 'content', 'invalid', 'Content');
    const { owner, name } = repositoryName(input.repository);
    if (typeof input.locationType !== 'string' || !(CONTENT_LOCATION_TYPES as readonly string[]).includes(input.locationType)) {
      throw validation(
        `locationType must be one of ${CONTENT_LOCATION_TYPES.join(', ')} (got ${JSON.stringify(input.locationType)})`,
        'location_type',
        'invalid',
        'Content',
      );
    }
    const locationType = input.locationType as LocationType;
    if (typeof input.url !== 'string' || !isHttpUrl(input.url)) {
      throw validation('url must be an absolute http(s) URL', 'url', 'invalid', 'Content');
    }
    if (input.url.length > PUSH_LIMITS.url) throw validation(`url must be at most ${PUSH_LIMITS.url} characters`, 'url', 'invalid', 'Content');
    if (typeof input.content !== 'string') throw validation('content must be a string', 'content', 'missing_field', 'Content');
    if (Buffer.byteLength(input.content, 'utf8') > PUSH_LIMITS.bytes) {
      throw validation(`content must be at most ${PUSH_LIMITS.bytes} bytes`, 'content', 'invalid', 'Content');
    }
    if (isBinary(input.content)) throw validation('content must be text (it contains NUL characters)', 'content', 'invalid', 'Content');

    const { repo, pusherId, readsAlerts } = await this.pushTarget(ctx, owner, name);
    if (!repo.secretScanning) return { alerts: readsAlerts ? [] : null, repository: repo };

    const [detected] = await this.detector.detect([{ content: input.content }]);
    const now = new Date();
    const alerts = await withTransaction(ctx, async (tx) => {
      const touched = new TouchedAlerts();
      await this.storeContents(tx.db, repo.id, [
        { locationType, commitSha: null, path: null, blobSha: null, url: input.url, pusherId, content: input.content },
      ]);
      const recorded = await this.deps.findings.recordFindings(tx.db, repo, detected.map((d) => findingFor(d, { type: locationType, url: input.url })), now);
      for (const r of recorded) touched.add(r);
      await this.deps.scans.recordScan(tx.db, {
        repositoryId: repo.id,
        kind: 'incremental',
        type: scanTypeOf(locationType),
        status: 'completed',
        startedAt: null,
        completedAt: now,
        alertsFound: touched.list.length,
      });
      return touched.list;
    });
    return { alerts: readsAlerts ? alerts : null, repository: repo };
  }

  // ------------------------------------------------------------------ bypasses

  /**
   * Endpoint 6. Order: input (422) -> repository visible (404) -> push protection on (404) -> permission
   * (403) -> placeholder of this repository, not expired (404) -> the viewer pushed it (403).
   * Idempotent: a second call returns the stored bypass; a different reason updates the reason only (the
   * bypass window is not extended).
   */
  async createBypass(ctx: RequestContext, repository: RepositoryEntity | null, input: BypassInput): Promise<BypassResult> {
    const errors: FieldError[] = [];
    const body = (input ?? {}) as Partial<BypassInput>;
    if (body.reason === undefined || body.reason === null || body.reason === '') {
      errors.push({ resource: 'SecretScanningPushProtectionBypass', field: 'reason', code: 'missing_field', message: 'reason is required' });
    } else if (!(BYPASS_REASONS as readonly unknown[]).includes(body.reason)) {
      errors.push({
        resource: 'SecretScanningPushProtectionBypass',
        field: 'reason',
        code: 'invalid',
        message: `reason must be one of ${BYPASS_REASONS.join(', ')}`,
      });
    }
    if (body.placeholderId === undefined || body.placeholderId === null || body.placeholderId === '') {
      errors.push({ resource: 'SecretScanningPushProtectionBypass', field: 'placeholderId', code: 'missing_field', message: '{{placeholderId}} is required' });
    } else if (typeof body.placeholderId !== 'string') {
      errors.push({ resource: 'SecretScanningPushProtectionBypass', field: 'placeholderId', code: 'invalid', message: '{{placeholderId}} must be a string' });
    }
    if (errors.length) {
      throw new ValidationError(`Invalid request: ${errors.map((e) => e.message).join('; ')}.`, { domainCode: CODES.INVALID_PUSH_INPUT, namesFields: true, fieldErrors: errors });
    }
    const reason = body.reason as BypassReason;
    const placeholderId = body.placeholderId as string;

    const { repo } = await this.deps.access.requireRepository(ctx, repository, 'secret_scanning.bypass.create', {
      precondition: (r) => (r.secretScanning && r.pushProtection ? null : new NotFoundError('Push protection is disabled on this repository', { domainCode: CODES.PUSH_PROTECTION_DISABLED })),
      roleDenied: () => new ForbiddenError('User does not have enough permissions'),
    });
    if (ctx.viewer.kind !== 'user') throw new ForbiddenError('User does not have enough permissions'); // can() lets only users bypass: for the type
    const viewerId = ctx.viewer.user.id;
    return withTransaction(ctx, (tx) => this.writeBypass(tx, repo, viewerId, placeholderId, reason));
  }

  /** createBypass's read-check-write in one transaction: the placeholder row is locked while it is decided on. */
  private async writeBypass(ctx: RequestContext, repo: RepositoryEntity, viewerId: number, placeholderId: string, reason: BypassReason): Promise<BypassResult> {
    const rows = ctx.db.getRepository(PushProtectionPlaceholderEntity);
    const key = lookupKey(placeholderId, 40);
    const p = key !== undefined ? await lockedFindOne(ctx.db, PushProtectionPlaceholderEntity, { placeholderId: key, repositoryId: repo.id }) : null;
    const now = new Date();
    const live = p && (p.expireAt.getTime() > now.getTime() || (p.bypassExpireAt !== null && p.bypassExpireAt.getTime() > now.getTime()));
    if (!p || !live) throw new NotFoundError('Placeholder ID not found', { domainCode: CODES.PLACEHOLDER_NOT_FOUND });
    if (p.pusherId !== viewerId) throw new ForbiddenError('User does not have enough permissions: only the author of the pushed secret may bypass push protection for it', {
        domainCode: CODES.BYPASS_NOT_PUSHER,
      });

    if (p.bypassedAt === null) {
      // Conditional update: of two concurrent first calls, one sets the window and both return it.
      await rows.update({ id: p.id, bypassedAt: IsNull() }, { bypassReason: reason, bypassedAt: now, bypassExpireAt: new Date(now.getTime() + BYPASS_TTL_MS) });
    } else if (p.bypassReason !== reason) {
      await rows.update({ id: p.id }, { bypassReason: reason });
    }
    const saved = await rows.findOneOrFail({ where: { id: p.id } });
    return { reason: saved.bypassReason!, expireAt: saved.bypassExpireAt!, tokenType: saved.secretType };
  }

  // ------------------------------------------------------------------ rescans

  /**
   * Start a backfill-like scan. The scan row is committed as in_progress (started_at now) and returned at
   * once; the rescan runs in the background: every stored content of the repository is rescanned in the
   * detector's worker threads, page by page, and the findings of each page are recorded in short
   * transactions (recordFinding de-duplicates locations). The row then becomes completed, or failed when
   * the rescan throws or the server shuts down first (close()); a row left in_progress by a crash is
   * marked failed at the next start (failInterruptedScans). Scan history shows the outcome.
   * All scans have type `git` (one entry per kind, covering every stored content). There are no custom
   * patterns, so a custom_pattern_backfill rescans with the built-in rules and is recorded with
   * pattern_slug null and pattern_scope `repository`.
   */
  async startScan(ctx: RequestContext, input: StartScanInput): Promise<StartScanResult> {
    if (!input || typeof input !== 'object') throw validation('the scan request must be an object', 'kind', 'invalid', 'SecretScanningScan');
    const { owner, name } = repositoryName(input.repository);
    if (typeof input.kind !== 'string' || !(STARTABLE_SCAN_KINDS as readonly string[]).includes(input.kind)) {
      throw validation(
        `kind must be one of ${STARTABLE_SCAN_KINDS.join(', ')} (got ${JSON.stringify(input.kind)})`,
        'kind',
        'invalid',
        'SecretScanningScan',
      );
    }
    const kind = input.kind as ScanKind;
    const { repo } = await this.deps.alertAccess.requireRepository(ctx, await this.deps.identity.findRepository(ctx, owner, name), 'secret_scanning.alerts.write');
    if (!repo.advancedSecurity) throw new NotFoundError('Advanced security is not enabled on this repository.');

    const attemptKeyHash = input.attemptKey === undefined ? null : createHash('sha256').update(String(input.attemptKey)).digest('hex');
    if (attemptKeyHash !== null) {
      const scans = ctx.dataSource.getRepository(SecretScanningScanEntity);
      const earlier = await scans.findOne({ where: { attemptKeyHash } });
      if (earlier && earlier.repositoryId === repo.id) {
        if (earlier.status === 'completed') return { scan: { ...earlier }, kind: earlier.kind, repository: repo, done: Promise.resolve(earlier) };
        const running = this.rescans.runOf(earlier.id);
        if (running) return { scan: { ...earlier }, kind: earlier.kind, repository: repo, done: running };
      }
      // Failed, interrupted (its process died), or of another repository: the key moves to a new scan.
      if (earlier) await scans.update({ id: earlier.id }, { attemptKeyHash: null });
    }
    const started = await this.deps.scans.recordScan(ctx.dataSource.manager, {
      attemptKeyHash,
      repositoryId: repo.id,
      kind,
      type: 'git',
      status: 'in_progress',
      startedAt: new Date(),
      completedAt: null,
      patternSlug: null,
      patternScope: kind === 'custom_pattern_backfill' ? 'repository' : null,
      alertsFound: 0,
    });
    const done = this.rescans.start(ctx, repo, started);
    return { scan: { ...started }, kind, repository: repo, done };
  }

  /**
   * Marks failed the scans a previous run of the server left in_progress (it crashed or was killed
   * during a rescan). Called once at start, before this process starts scans of its own.
   */
  async failInterruptedScans(db: EntityManager): Promise<number> {
    const r = await db.getRepository(SecretScanningScanEntity).update({ status: 'in_progress' }, { status: 'failed', completedAt: new Date() });
    return r.affected ?? 0;
  }

  /**
   * Shutdown: cancels the background rescans (each stops at its next step and is marked failed), waits
   * for them to record that, then ends the detector's threads. Call with the database still open.
   */
  async close(): Promise<void> {
    await this.rescans.close();
    await this.detector.close();
  }
}

function isHttpUrl(value: string): boolean {
  if (/[\s\u0000-\u001f]/.test(value)) return false;
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.host !== '';
  } catch {
    return false;
  }
}
