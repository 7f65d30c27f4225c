import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { TrainingStage, TrainingState } from '@avatar-studio/contracts';
import type { TrainingCheckpoint } from './training-rules';

/**
 * A training: a dataset file (in the files module) that a job turns into its avatar's knowledge (the passages of
 * an avatar file) and a learned style guide. `checkpoint` is where a running job is, so a restarted worker resumes.
 */
@Entity('trainings')
export class Training {
  @PrimaryGeneratedColumn()
  training_id: number;

  @Column({ type: 'int' })
  user_id: number;

  @Column({ type: 'int', nullable: true })
  organization_id: number | null;

  @Column({ type: 'int' })
  avatar_id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'int', nullable: true })
  file_id: number | null;

  @Column({ type: 'boolean', default: false })
  public: boolean;

  @Column({ type: 'varchar', length: 20, default: 'draft' })
  state: TrainingState;

  @Column({ type: 'varchar', length: 20, nullable: true })
  stage: TrainingStage | null;

  @Column({ type: 'int', default: 0 })
  progress: number;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ type: 'jsonb', nullable: true })
  checkpoint: TrainingCheckpoint | null;

  @Column({ type: 'text', default: '' })
  style_guide: string;

  /** The avatar file holding the dataset's passages (made by the first run). */
  @Column({ type: 'int', nullable: true })
  avatar_file_id: number | null;

  @Column({ type: 'timestamptz', nullable: true })
  started_at: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  executed_at: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  synced_at: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  refined_at: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
