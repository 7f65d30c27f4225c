import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/** A named set of an organization's users, to give campaigns to many at once. */
@Entity('groups')
export class Group {
  @PrimaryGeneratedColumn()
  group_id: number;

  @Column({ type: 'int' })
  organization_id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

/** A user in a group (always a member of the group's organization when added). */
@Entity('group_users')
export class GroupUser {
  @PrimaryColumn({ type: 'int' })
  group_id: number;

  @PrimaryColumn({ type: 'int' })
  user_id: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
