import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** One visitor's conversation with a widget (a visitor is a random id their browser keeps). */
@Entity('widget_conversations')
export class WidgetConversation {
  @PrimaryGeneratedColumn()
  widget_conversation_id: number;

  @Column({ type: 'int' })
  widget_id: number;

  @Column({ type: 'uuid' })
  visitor_id: string;

  /** The site it was started on. */
  @Column({ type: 'varchar', length: 255 })
  origin: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
