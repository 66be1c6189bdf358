import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * How many alerts each repository has, kept by database triggers on `secret_scanning_alerts` (insert, delete,
 * a change of repository: migration SecretScanningAlertTotals), so every way rows get there (findings, imports,
 * seeds, fixtures, SQL by hand) keeps it exact. The organization dashboard's unfiltered total is a SUM over the
 * organization's repositories instead of a count over every alert (20k index entries per request). Never
 * written by the application.
 */
@Entity('secret_scanning_alert_totals')
export class SecretScanningAlertTotalEntity {
  @PrimaryColumn({ name: 'repository_id', type: 'integer' })
  repositoryId: number;

  @Column({ name: 'alerts', type: 'integer', default: 0 })
  alerts: number;
}
