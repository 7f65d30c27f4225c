import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { StepStatus } from './user-workflow-rules';

/**
 * A customer's run of a workflow, owned by its creator in the scope it was started in. It keeps running after
 * its workflow is deleted (workflow_id null).
 */
@Entity('user_workflows')
export class UserWorkflow {
  @PrimaryGeneratedColumn()
  user_workflow_id: number;

  @Column({ type: 'int' })
  user_id: number;

  @Column({ type: 'int', nullable: true })
  organization_id: number | null;

  @Column({ type: 'int', nullable: true })
  workflow_id: number | null;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'jsonb', default: () => `'{}'` })
  values: Record<string, string>;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

/**
 * One step of a run: its conversation (of the conversations module; the step goes with it) and a copy of its
 * template's prompt, so regenerating works after the template is edited or deleted (template_id null).
 * `updatedAt` is the lease of the process running the step.
 */
@Entity('user_workflow_templates')
export class UserWorkflowStep {
  @PrimaryGeneratedColumn()
  user_workflow_template_id: number;

  @Column({ type: 'int' })
  user_workflow_id: number;

  @Column({ type: 'int', nullable: true })
  template_id: number | null;

  @Column({ type: 'int' })
  conversation_id: number;

  @Column({ type: 'int' })
  order: number;

  @Column({ type: 'text' })
  content: string;

  @Column({ type: 'varchar', length: 20, default: 'pending' })
  status: StepStatus;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
