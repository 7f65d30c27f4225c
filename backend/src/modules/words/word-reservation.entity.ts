import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Words held by one running generation until it settles (see WordsService.reserve). */
@Entity('word_reservations')
export class WordReservation {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  reservation_id: string;

  @Column({ type: 'int' })
  user_id: number;

  @Column({ type: 'int' })
  words: number;

  @Column({ type: 'varchar', length: 100, nullable: true })
  reference: string | null;

  /** False for answers bounded by their own limit (a widget's visitors), which leave the payer's cap alone. */
  @Column({ type: 'boolean', default: true })
  counts_toward_user_cap: boolean;

  @Column({ type: 'timestamptz' })
  expires_at: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
