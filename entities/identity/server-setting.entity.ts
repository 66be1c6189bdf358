import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Small key/value settings shared by every instance (e.g. the generated encryption key when none is configured). */
@Entity('server_settings')
export class ServerSettingEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  key: string;

  @Column({ type: 'text' })
  value: string;
}
