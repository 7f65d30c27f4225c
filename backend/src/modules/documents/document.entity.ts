import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A text document, owned by its creator in the scope it was created in (organization_id null = Personal). */
@Entity('documents')
export class TextDocument {
  @PrimaryGeneratedColumn()
  document_id: number;

  @Column({ type: 'int' })
  user_id: number;

  @Column({ type: 'int', nullable: true })
  organization_id: number | null;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  tags: string[];

  /** Markdown: what search, the size limit and the Word download read. */
  @Column({ type: 'text', default: '' })
  content: string;

  /** The block editor's JSON of the same text; null when the content was written without the editor. */
  @Column({ type: 'jsonb', nullable: true })
  blocks: Record<string, unknown>[] | null;

  /** Raised by every save; a save that names an older version is refused (a second tab's stale copy). */
  @Column({ type: 'int', default: 1 })
  version: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
