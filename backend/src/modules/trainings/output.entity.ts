import type { OutputRating, OutputStatus } from '@avatar-studio/contracts';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A text written by an avatar (with a training's style guide when `training_id` is set), rated by its user. */
@Entity('outputs')
export class Output {
  @PrimaryGeneratedColumn()
  output_id: number;

  @Column({ type: 'int' })
  user_id: number;

  @Column({ type: 'int', nullable: true })
  organization_id: number | null;

  @Column({ type: 'int' })
  avatar_id: number;

  @Column({ type: 'int', nullable: true })
  training_id: number | null;

  @Column({ type: 'text' })
  prompt: string;

  @Column({ type: 'text', nullable: true })
  content: string | null;

  @Column({ type: 'varchar', length: 20, default: 'complete' })
  status: OutputStatus;

  @Column({ type: 'varchar', length: 10, nullable: true })
  rating: OutputRating | null;

  @Column({ type: 'text', nullable: true })
  rating_note: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
