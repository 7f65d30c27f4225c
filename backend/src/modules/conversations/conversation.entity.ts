import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/**
 * A conversation, owned by its creator in the scope it was created in (organization_id null = Personal). `tags`
 * keeps the comma string as typed; conversation_tags mirrors it for counts and filters.
 */
@Entity('conversations')
export class Conversation {
  @PrimaryGeneratedColumn()
  conversation_id: number;

  @Column({ type: 'int' })
  user_id: number;

  @Column({ type: 'int', nullable: true })
  organization_id: number | null;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** Null = the default model. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  model: string | null;

  @Column({ type: 'text', default: '' })
  tags: string;

  @Column({ type: 'boolean', default: false })
  archived: boolean;

  @Column({ type: 'int', nullable: true })
  avatar_id: number | null;

  /** Set on a user's thread with this avatar (one per user, avatar and scope; kept out of the list). */
  @Column({ type: 'int', nullable: true })
  thread_avatar_id: number | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;

  /**
   * With an avatar: when the same user's previous conversation with the same avatar was created (null for their
   * first), so the avatars' usage counts users without a distinct count. Kept by the database's triggers
   * (migration AvatarUsagePreviousConversation), never written or read by the entity.
   */
  @Column({ type: 'timestamptz', nullable: true, select: false, insert: false, update: false })
  previous_with_avatar_at: Date | null;
}

/** One tag of a conversation, rewritten with the conversation's comma string on every save. */
@Entity('conversation_tags')
export class ConversationTag {
  @PrimaryColumn({ type: 'int' })
  conversation_id: number;

  @PrimaryColumn({ type: 'varchar', length: 100 })
  tag: string;
}

/** The file attached to a conversation (one at most); `extracted_text` is read once (null for images). */
@Entity('conversation_files')
export class ConversationFile {
  @PrimaryColumn({ type: 'int' })
  conversation_id: number;

  /** A stored file of the files module (its bytes and metadata are that module's). */
  @Column({ type: 'int' })
  file_id: number;

  @Column({ type: 'text', nullable: true })
  extracted_text: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
