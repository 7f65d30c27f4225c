import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type SuperFetchRole = 'user' | 'assistant';

/**
 * One entry of a user's Super Fetch history with one assistant, in one scope (organization_id null = Personal):
 * the prompt a request sent (role user, with the feedback it carried) or one output (role assistant). The history
 * is also what the assistant learns from on the next request; a reset deletes it.
 */
@Entity('super_fetch_messages')
export class SuperFetchMessage {
  @PrimaryGeneratedColumn()
  message_id: number;

  @Column({ type: 'int' })
  user_id: number;

  @Column({ type: 'int', nullable: true })
  organization_id: number | null;

  /** The Super Fetch avatar answering (its id), and the assistant_id the calls name it by. */
  @Column({ type: 'int' })
  avatar_id: number;

  @Column({ type: 'varchar', length: 64 })
  assistant_id: string;

  @Column({ type: 'varchar', length: 16 })
  role: SuperFetchRole;

  @Column({ type: 'text' })
  content: string;

  /** The request that produced it: its prompt and outputs share it. */
  @Column({ type: 'uuid' })
  request_id: string;

  /** On a prompt sent with feedback: thumbs up (true) or down (false) on the previous output; else null. */
  @Column({ type: 'boolean', nullable: true })
  liked: boolean | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
