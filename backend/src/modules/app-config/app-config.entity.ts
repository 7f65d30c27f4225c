import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** One app config entry. Secret values are stored encrypted (see SecretBox). */
@Entity('app_config')
export class AppConfigEntry {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  key: string;

  @Column({ type: 'text', nullable: true })
  value: string | null;

  @Column({ type: 'int', nullable: true })
  updated_by: number | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
