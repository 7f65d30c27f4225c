import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { MessageStatus } from '@avatar-studio/contracts';
import type { MessageCitationDto, MessageSourceDto } from './dto/message.dto';

/**
 * A message of a conversation: the user's, or the assistant's answer. An answer is 'generating' while an
 * instance produces it (holding a lease, `partial_content` the text so far), then 'complete' or 'interrupted'.
 * Times default to clock_timestamp() so a user message and its answer written in one transaction keep their order.
 */
@Entity('messages')
export class Message {
  @PrimaryGeneratedColumn()
  message_id: number;

  @Column({ type: 'int' })
  conversation_id: number;

  @Column({ type: 'int' })
  user_id: number;

  @Column({ type: 'varchar', length: 20 })
  role: 'user' | 'assistant';

  /** Null while the answer is generated. */
  @Column({ type: 'text', nullable: true })
  content: string | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  finish_reason: string | null;

  @Column({ type: 'boolean', default: false })
  favorite: boolean;

  /** What the model gets instead of `content` (a rendered template); never shown, so never selected unasked. */
  @Column({ type: 'text', nullable: true, select: false })
  prompt: string | null;

  @Column({ type: 'int', nullable: true })
  user_message_id: number | null;

  @Column({ type: 'int', nullable: true })
  message_type_id: number | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  model: string | null;

  @Column({ type: 'int', default: 0 })
  words: number;

  @Column({ type: 'jsonb', nullable: true })
  sources: MessageSourceDto[] | null;

  /** On an avatar's answer: the passages of its files it was given. */
  @Column({ type: 'jsonb', nullable: true })
  citations: MessageCitationDto[] | null;

  @Column({ type: 'varchar', length: 20, default: 'complete' })
  status: MessageStatus;

  @Column({ type: 'text', nullable: true })
  interrupted_reason: string | null;

  @Column({ type: 'text', nullable: true })
  partial_content: string | null;

  /** Until when the instance generating the answer holds it; not shown. */
  @Column({ type: 'timestamptz', nullable: true, select: false })
  lease_until: Date | null;

  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  updatedAt: Date;
}
