import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { IdeaKind } from './idea-rules';

/** One topic or hashtag generation kept in its user's history (organization_id null = Personal). */
@Entity('generated_ideas')
export class GeneratedIdea {
  @PrimaryGeneratedColumn()
  idea_id: number;

  @Column({ type: 'int' })
  user_id: number;

  @Column({ type: 'int', nullable: true })
  organization_id: number | null;

  @Column({ type: 'varchar', length: 16 })
  kind: IdeaKind;

  /** What was asked: {subject, audience, count, language} or {text, platform, count}. */
  @Column({ type: 'jsonb' })
  input: Record<string, string | number | null>;

  /** The ideas, one per entry (hashtags with their #). */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  items: string[];

  /** The model's text as produced. */
  @Column({ type: 'text', default: '' })
  content: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
