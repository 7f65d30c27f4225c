import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A visitor's question or the avatar's answer. Answers are stored once complete, with their words. */
@Entity('widget_messages')
export class WidgetMessage {
  @PrimaryGeneratedColumn()
  widget_message_id: number;

  @Column({ type: 'int' })
  widget_conversation_id: number;

  /** Kept beside the conversation so a widget's words of the day are one index range. */
  @Column({ type: 'int' })
  widget_id: number;

  @Column({ type: 'varchar', length: 16 })
  role: 'user' | 'assistant';

  @Column({ type: 'text' })
  content: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  finish_reason: string | null;

  @Column({ type: 'int', default: 0 })
  words: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
