import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A tutorial video in one language: a YouTube video id or an uploaded video's src. */
@Entity('tutorials')
export class Tutorial {
  @PrimaryGeneratedColumn()
  tutorial_id: number;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** An uploaded image's src, or null. */
  @Column({ type: 'text', nullable: true })
  thumbnail: string | null;

  @Column({ type: 'int', default: 0 })
  order: number;

  /** A YouTube video id (11 characters) or an uploaded video's src (/api/files/content/...). */
  @Column({ type: 'text' })
  src: string;

  @Column({ type: 'varchar', length: 5, default: 'en' })
  language: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

/** One play of a tutorial (the analytics `videos` call counts them). */
@Entity('tutorial_plays')
export class TutorialPlay {
  @PrimaryGeneratedColumn()
  play_id: number;

  @Column({ type: 'int' })
  tutorial_id: number;

  @Column({ type: 'int', nullable: true })
  user_id: number | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
