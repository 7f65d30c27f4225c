import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A passage of an avatar's file. `tsv` (a generated tsvector, GIN-indexed) is left to the database; the
 * entity maps what the code writes and reads.
 */
@Entity('avatar_chunks')
export class AvatarChunk {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  chunk_id: string;

  @Column({ type: 'int' })
  avatar_id: number;

  @Column({ type: 'int' })
  avatar_file_id: number;

  @Column({ type: 'int' })
  ordinal: number;

  @Column({ type: 'text' })
  content: string;

  @Column({ type: 'real', array: true, nullable: true })
  embedding: number[] | null;
}
