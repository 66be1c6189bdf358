import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The last alert number given out per repository: numbers are never reused. */
@Entity('secret_scanning_alert_counters')
export class SecretScanningAlertCounterEntity {
  @PrimaryColumn({ name: 'repository_id', type: 'integer' })
  repositoryId: number;

  @Column({ name: 'last_number', type: 'integer', default: 0 })
  lastNumber: number;
}
