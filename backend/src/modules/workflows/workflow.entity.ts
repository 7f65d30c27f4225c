import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/** A staff-authored workflow. `tags` keeps the comma string as typed; workflow_tags mirrors it. */
@Entity('workflows')
export class Workflow {
  @PrimaryGeneratedColumn()
  workflow_id: number;

  /** Its author; null once that account is gone. */
  @Column({ type: 'int', nullable: true })
  user_id: number | null;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'text', default: '' })
  tags: string;

  /** Loaded by the first run (the setup module's starter content); staff remove all of those at once. */
  @Column({ type: 'boolean', default: false })
  starter: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

/** One step of a workflow: a template (of the templates module) at a position; deleting the template drops it. */
@Entity('workflow_templates')
export class WorkflowTemplate {
  @PrimaryColumn({ type: 'int' })
  workflow_id: number;

  @PrimaryColumn({ type: 'int' })
  order: number;

  @Column({ type: 'int' })
  template_id: number;
}

/** One tag of a workflow, rewritten with the workflow's comma string on every save. */
@Entity('workflow_tags')
export class WorkflowTag {
  @PrimaryColumn({ type: 'int' })
  workflow_id: number;

  @PrimaryColumn({ type: 'varchar', length: 100 })
  tag: string;
}
