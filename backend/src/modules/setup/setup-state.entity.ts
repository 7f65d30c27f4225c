import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * What the first run did and what the connection tests found: `starter_content` (loaded, removed, skipped)
 * and `test:<item>` (passed, failed; cleared by every settings change).
 */
@Entity('setup_state')
export class SetupStateEntry {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  key: string;

  @Column({ type: 'varchar', length: 100 })
  value: string;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated_at: Date;
}
