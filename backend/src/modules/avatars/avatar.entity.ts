import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** An assistant: its owner's instruction (context) plus knowledge files. */
@Entity('avatars')
export class Avatar {
  @PrimaryGeneratedColumn()
  avatar_id: number;

  /** Our own stable key of the avatar (the field kept where the product once named an OpenAI assistant). */
  @Column({ type: 'varchar', length: 40, unique: true })
  assistant_id: string;

  @Column({ type: 'int' })
  user_id: number;

  @Column({ type: 'int', nullable: true })
  organization_id: number | null;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'text', default: '' })
  context: string;

  @Column({ type: 'boolean', default: false })
  public: boolean;

  @Column({ type: 'boolean', default: false })
  super_fetch_assistant: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
