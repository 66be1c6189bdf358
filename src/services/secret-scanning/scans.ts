/**
 * Secret scanning scan history: recording scan runs and reading the latest of each kind.
 */
import { EntityManager } from 'typeorm';
import { RepositoryEntity } from '../../../entities/identity';
import { SCAN_KINDS, ScanKind, SecretScanningScanEntity } from '../../../entities/secret-scanning';
import type { RequestContext } from '../../context';
import { InWriteTransaction } from '../../db/transaction';
import { NotFoundError } from '../../errors/app-error';
import type { SecretScanningAlertAccess } from './alert-access';

export class SecretScanningScanService {
  constructor(private readonly alertAccess: SecretScanningAlertAccess) {}

  async scanHistory(ctx: RequestContext, repository: RepositoryEntity | null): Promise<{ repo: RepositoryEntity; scans: Record<ScanKind, SecretScanningScanEntity[]> }> {
    const { repo } = await this.alertAccess.requireRepository(ctx, repository, 'secret_scanning.scan_history.read');
    if (!repo.advancedSecurity) throw new NotFoundError('Advanced security is not enabled on this repository.');
    const rows = await ctx.db
      .getRepository(SecretScanningScanEntity)
      .createQueryBuilder('s')
      .where('s.repository_id = :rid', { rid: repo.id })
      .andWhere(
        `s.id IN (SELECT MAX(s2.id) FROM secret_scanning_scans s2 WHERE s2.repository_id = :rid GROUP BY s2.kind, s2.type, COALESCE(s2.pattern_slug, ''))`,
      )
      .orderBy('s.id', 'DESC')
      .getMany();
    const scans = Object.fromEntries(SCAN_KINDS.map((k) => [k, [] as SecretScanningScanEntity[]])) as Record<ScanKind, SecretScanningScanEntity[]>;
    for (const r of rows) scans[r.kind].push(r);
    return { repo, scans };
  }

  /** Record a scan run. */
  @InWriteTransaction()
  async recordScan(db: EntityManager, scan: Partial<SecretScanningScanEntity> & { repositoryId: number; kind: ScanKind; type: string }): Promise<SecretScanningScanEntity> {
    const repo = db.getRepository(SecretScanningScanEntity);
    return repo.save(
      repo.create({
        status: 'completed',
        startedAt: null,
        completedAt: null,
        patternSlug: null,
        patternScope: null,
        alertsFound: 0,
        ...scan,
      }),
    );
  }
}
