import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** An uploaded file. Bytes live in storage (local disk or S3) under a server-made key. */
@Entity('files')
export class StoredFile {
  @PrimaryGeneratedColumn()
  file_id: number;

  @Index()
  @Column({ type: 'int' })
  user_id: number;

  /** The name the user gave it (display only). */
  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** MIME type detected from the content. */
  @Column({ type: 'varchar', length: 120 })
  type: string;

  @Column({ type: 'int' })
  size: number;

  /** Random storage key; also the unguessable part of `src`. */
  @Index({ unique: true })
  @Column({ type: 'varchar', length: 80 })
  storage_key: string;

  /** Public files (images, videos for thumbnails and welcome videos) can be fetched by anyone holding src. */
  @Column({ type: 'boolean', default: false })
  public: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
