import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

const bigintAsNumber = { to: (v: number) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

/** One row of the word ledger: a grant, a debit, an expiry or an adjustment. Rows are never deleted. */
@Entity('word_ledger')
export class WordLedgerEntry {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  entry_id: string;

  @Column({ type: 'int' })
  user_id: number;

  /** The organization the words were spent in (debits). */
  @Column({ type: 'int', nullable: true })
  organization_id: number | null;

  @Column({ type: 'varchar', length: 16 })
  kind: 'grant' | 'debit' | 'expiry' | 'adjustment';

  /** Positive for grants, negative for debits. */
  @Column({ type: 'bigint', transformer: bigintAsNumber })
  words: number;

  @Column({ type: 'boolean', default: false })
  unlimited: boolean;

  @Column({ type: 'varchar', length: 40 })
  source: string;

  @Column({ type: 'varchar', length: 120, nullable: true })
  reference: string | null;

  /** A grant stops being usable at this instant (null: never); ending a grant early moves it to then. */
  @Column({ type: 'timestamptz', nullable: true })
  expires_at: Date | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  note: string | null;

  @Column({ type: 'int', nullable: true })
  created_by: number | null;

  /** clock_timestamp() by the table's default: the instant the row was decided, under the user's lock. */
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
