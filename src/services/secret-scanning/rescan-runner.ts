/**
 * Rescans (POST scans): every stored content of a repository read again page by page, detected in the worker
 * threads and recorded as findings, in the background of the request that started it. The runs of this process
 * are kept by scan id so a retried start can join its run and shutdown can cancel them.
 */
import { In } from 'typeorm';
import { RepositoryEntity } from '../../../entities/identity';
import { LocationType, SecretScanningContentEntity, SecretScanningScanEntity } from '../../../entities/secret-scanning';
import { RequestContext, withTransaction } from '../../context';
import { findingFor, TouchedAlerts, type SecretScanningFindingService } from './alert-findings';
import type { Finding } from './alert-types';
import { DetectorPool } from './detector/pool';

/** A rescan reads stored content in pages of at most this many rows and about RESCAN_PAGE_CHARS characters. */
const RESCAN_BATCH = 100;
const RESCAN_PAGE_CHARS = 4 * 1024 * 1024;
/**
 * A rescan records findings in short transactions (at most RESCAN_FINDINGS_PER_TRANSACTION and, on
 * SQLite, no more once one has taken RESCAN_TRANSACTION_MS), and the event loop gets a turn between two
 * of them: on SQLite every query runs synchronously in the main thread (better-sqlite3), so a long
 * transaction would hold every other request as detection in the main thread did. (PostgreSQL queries
 * are I/O: the event loop runs during them, and a time bound would only add round trips.)
 */
const RESCAN_FINDINGS_PER_TRANSACTION = 100;
const RESCAN_TRANSACTION_MS = 10;

export class RescanRunner {
  /** Background rescans of this process, by scan id. */
  private readonly running = new Map<number, { abort: AbortController; done: Promise<SecretScanningScanEntity> }>();

  /** `detector` is the push service's pool; its owner closes it. */
  constructor(
    private readonly detector: DetectorPool,
    private readonly findings: SecretScanningFindingService,
  ) {}

  /** The run of scan `id` when it is still running in this process. */
  runOf(id: number): Promise<SecretScanningScanEntity> | undefined {
    return this.running.get(id)?.done;
  }

  /** Starts the rescan recorded as `scan` (in_progress) in the background; the promise settles with its final row. */
  start(ctx: RequestContext, repo: RepositoryEntity, scan: SecretScanningScanEntity): Promise<SecretScanningScanEntity> {
    const abort = new AbortController();
    const done = this.runScan(ctx, repo, scan, abort.signal).finally(() => this.running.delete(scan.id));
    this.running.set(scan.id, { abort, done });
    return done;
  }

  /** The background part of startScan; settles with the final row, never rejects. */
  private async runScan(ctx: RequestContext, repo: RepositoryEntity, scan: SecretScanningScanEntity, signal: AbortSignal): Promise<SecretScanningScanEntity> {
    const scans = ctx.dataSource.getRepository(SecretScanningScanEntity);
    const touched = new TouchedAlerts();
    let outcome: Pick<SecretScanningScanEntity, 'status' | 'completedAt' | 'alertsFound'>;
    try {
      await this.rescan(ctx, repo, signal, touched);
      signal.throwIfAborted();
      outcome = { status: 'completed', completedAt: new Date(), alertsFound: touched.list.length };
    } catch (err) {
      if (signal.aborted) ctx.log.warn({ scanId: scan.id, repositoryId: repo.id }, 'secret scan cancelled by shutdown: marked failed');
      else ctx.log.error({ err, scanId: scan.id, repositoryId: repo.id }, 'secret scan failed');
      outcome = { status: 'failed', completedAt: new Date(), alertsFound: touched.list.length };
    }
    try {
      // Only an in_progress row: another process's start may have marked it failed meanwhile.
      await scans.update({ id: scan.id, status: 'in_progress' }, outcome);
      return (await scans.findOne({ where: { id: scan.id } })) ?? { ...scan, ...outcome };
    } catch (err) {
      ctx.log.error({ err, scanId: scan.id }, 'could not record the end of a secret scan');
      return { ...scan, ...outcome };
    }
  }

  /**
   * Rescan every stored content of a repository, page by page, adding the alerts touched to `touched`.
   * The next page is read and detected (in the worker threads) while the findings of this one are
   * recorded (in the main thread).
   */
  private async rescan(ctx: RequestContext, repo: RepositoryEntity, signal: AbortSignal, touched: TouchedAlerts): Promise<void> {
    const budgetMs = ctx.dataSource.options.type === 'better-sqlite3' ? RESCAN_TRANSACTION_MS : Infinity;
    let pending = this.rescanPage(ctx, repo, 0, signal);
    for (;;) {
      const page = await pending;
      if (!page) break;
      pending = this.rescanPage(ctx, repo, page.lastId, signal);
      pending.catch(() => undefined); // awaited on the next turn; not if recording this page throws
      for (let i = 0; i < page.findings.length; ) {
        signal.throwIfAborted();
        const part = page.findings.slice(i, i + RESCAN_FINDINGS_PER_TRANSACTION);
        const now = new Date();
        const results = await withTransaction(ctx, async (tx) => {
          // PostgreSQL: the part at once, so the repository's alert counter is locked briefly (see recordFindings).
          if (budgetMs === Infinity) return this.findings.recordFindings(tx.db, repo, part, now);
          const started = performance.now();
          const out = [];
          for (const f of part) {
            out.push(await this.findings.recordFinding(tx.db, repo, f, now));
            if (performance.now() - started >= budgetMs) break;
          }
          return out;
        });
        for (const r of results) touched.add(r);
        i += results.length;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
  }

  /** The findings of the stored contents after `afterId` (one page), or null when there are none. */
  private async rescanPage(ctx: RequestContext, repo: RepositoryEntity, afterId: number, signal: AbortSignal): Promise<{ lastId: number; findings: Finding[] } | null> {
    signal.throwIfAborted();
    const contents = ctx.dataSource.getRepository(SecretScanningContentEntity);
    // Ids and sizes first, so a page holds at most RESCAN_PAGE_CHARS of content (one file at least).
    const sizes: Array<{ id: number; len: number }> = (
      await contents
        .createQueryBuilder('c')
        .select('c.id', 'id')
        .addSelect('LENGTH(c.content)', 'len')
        .where('c.repository_id = :rid', { rid: repo.id })
        .andWhere('c.id > :after', { after: afterId })
        .orderBy('c.id', 'ASC')
        .limit(RESCAN_BATCH)
        .getRawMany<{ id: number | string; len: number | string }>()
    ).map((r) => ({ id: Number(r.id), len: Number(r.len) }));
    if (sizes.length === 0) return null;
    const ids: number[] = [];
    let chars = 0;
    for (const r of sizes) {
      if (ids.length && chars + r.len > RESCAN_PAGE_CHARS) break;
      ids.push(r.id);
      chars += r.len;
    }
    const batch = await contents.find({ where: { id: In(ids) }, order: { id: 'ASC' } });
    const commitLike = (c: SecretScanningContentEntity) => c.locationType === 'commit' || c.locationType === 'wiki_commit';
    const detected = await this.detector.detect(
      batch.map((c) => (commitLike(c) && c.path ? { content: c.content, path: c.path } : { content: c.content })),
      signal,
    );
    const findings: Finding[] = [];
    batch.forEach((c, i) => {
      for (const d of detected[i]) {
        findings.push(
          findingFor(
            d,
            commitLike(c)
              ? {
                  type: c.locationType as LocationType,
                  path: c.path,
                  startLine: d.startLine,
                  endLine: d.endLine,
                  startColumn: d.startColumn,
                  endColumn: d.endColumn,
                  blobSha: c.blobSha,
                  commitSha: c.commitSha,
                }
              : { type: c.locationType as LocationType, url: c.url },
          ),
        );
      }
    });
    return { lastId: ids[ids.length - 1], findings };
  }

  /** Cancels the running rescans (each stops at its next step and is marked failed) and waits for them to record that. */
  async close(): Promise<void> {
    const running = [...this.running.values()];
    for (const r of running) r.abort.abort(new Error('server shutting down'));
    await Promise.all(running.map((r) => r.done));
  }
}
