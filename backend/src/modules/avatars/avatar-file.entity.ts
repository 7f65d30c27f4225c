import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const INDEX_STATES = ['pending', 'indexing', 'ready', 'failed'] as const;
export type IndexState = (typeof INDEX_STATES)[number];

/**
 * A knowledge file of an avatar. An uploaded file's bytes stay in the files module (file_id); an editable text
 * file's text is `content`, edited in place. Its passages are indexed by a job whose state is `index_state`.
 */
@Entity('avatar_files')
export class AvatarFile {
  @PrimaryGeneratedColumn()
  avatar_file_id: number;

  @Column({ type: 'int' })
  avatar_id: number;

  @Column({ type: 'int', nullable: true })
  file_id: number | null;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 120 })
  type: string;

  @Column({ type: 'boolean', default: false })
  editable: boolean;

  @Column({ type: 'text', nullable: true })
  content: string | null;

  @Column({ type: 'varchar', length: 20, default: 'pending' })
  index_state: IndexState;

  @Column({ type: 'text', nullable: true })
  index_error: string | null;

  @Column({ type: 'int', default: 0 })
  chunks: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
