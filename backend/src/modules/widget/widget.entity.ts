import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * A chat widget: an owner's avatar offered to visitors of the sites named in `allowed_origins`, under its own
 * limits. `public_key` is what the embed snippet carries; it proves nothing by itself (the origin check and the
 * limits guard the owner's words), so it is not a secret.
 */
@Entity('widgets')
export class Widget {
  @PrimaryGeneratedColumn()
  widget_id: number;

  @Column({ type: 'int' })
  user_id: number;

  @Column({ type: 'int', nullable: true })
  organization_id: number | null;

  @Column({ type: 'int' })
  avatar_id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** Six hex digits, lower case, without the #. */
  @Column({ type: 'varchar', length: 6 })
  accent_color: string;

  /** The button image: a public image among the owner's files. */
  @Column({ type: 'int', nullable: true })
  image_file_id: number | null;

  /** Exact origins (scheme://host[:port]) the widget answers on. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  allowed_origins: string[];

  @Column({ type: 'int' })
  messages_per_minute: number;

  @Column({ type: 'int' })
  words_per_day: number;

  @Column({ type: 'int' })
  max_concurrent_streams: number;

  @Column({ type: 'boolean', default: false })
  disabled: boolean;

  @Column({ type: 'varchar', length: 40, unique: true })
  public_key: string;

  @Column({ type: 'int', default: 0 })
  conversations_count: number;

  @Column({ type: 'int', default: 0 })
  messages_count: number;

  /** bigint: node-postgres reads it as a string. */
  @Column({ type: 'bigint', default: 0 })
  words_count: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
