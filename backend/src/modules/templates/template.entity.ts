import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { StoredField, TemplateLanguage } from './template-rules';

/**
 * A prompt template. It outlives its author (user_id null) because public and organization templates are used
 * by others; `tags` keeps the comma string as typed and template_tags mirrors it; `fields` holds the field
 * settings, select options in their slash-joined form.
 */
@Entity('templates')
export class Template {
  @PrimaryGeneratedColumn()
  template_id: number;

  @Column({ type: 'int', nullable: true })
  user_id: number | null;

  @Column({ type: 'int', nullable: true })
  organization_id: number | null;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'text' })
  description: string;

  @Column({ type: 'text' })
  content: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  type: string;

  @Column({ type: 'text', default: '' })
  tags: string;

  @Column({ type: 'varchar', length: 2, default: 'en' })
  language: TemplateLanguage;

  @Column({ type: 'boolean', default: false })
  public: boolean;

  @Column({ type: 'boolean', default: false })
  editable: boolean;

  @Column({ type: 'boolean', default: true })
  show_prompt: boolean;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  fields: StoredField[];

  /** Loaded by the first run (the setup module's starter content); staff remove all of those at once. */
  @Column({ type: 'boolean', default: false })
  starter: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

/** One tag of a template, rewritten with the template's comma string on every save. */
@Entity('template_tags')
export class TemplateTag {
  @PrimaryColumn({ type: 'int' })
  template_id: number;

  @PrimaryColumn({ type: 'varchar', length: 100 })
  tag: string;
}

/** A user's favorite template. */
@Entity('template_favorites')
export class TemplateFavorite {
  @PrimaryColumn({ type: 'int' })
  user_id: number;

  @PrimaryColumn({ type: 'int' })
  template_id: number;
}
