import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

@Entity('organizations')
export class Organization {
  @PrimaryGeneratedColumn()
  organization_id: number;

  @Column({ type: 'varchar', length: 120 })
  name: string;

  /** URL-safe name, unique; used by the organization choice order. */
  @Index({ unique: true })
  @Column({ type: 'varchar', length: 140 })
  slug: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  tagline: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  thumbnail: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  welcome_video: string | null;

  /** Host name that selects this organization (e.g. acme.example.com). */
  @Index({ unique: true, where: 'domain IS NOT NULL' })
  @Column({ type: 'varchar', length: 253, nullable: true })
  domain: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  stripe_public: string | null;

  /** Encrypted at rest. */
  @Column({ type: 'text', nullable: true })
  stripe_secret: string | null;

  /** Encrypted at rest. */
  @Column({ type: 'text', nullable: true })
  stripe_webhook_secret: string | null;

  /** Encrypted at rest. */
  @Column({ type: 'text', nullable: true })
  openai_api_key: string | null;

  @OneToMany('UserOrganization', (uo: UserOrganization) => uo.organization)
  users?: UserOrganization[];

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

/** 1 Admin, 2 Manager, 3 Member. */
@Entity('user_types')
export class UserType {
  @PrimaryColumn({ type: 'int' })
  user_type_id: number;

  @Column({ type: 'varchar', length: 20 })
  name: string;
}

/** Membership of a user in an organization, with their role there. */
@Entity('user_organizations')
@Index(['user_id', 'organization_id'], { unique: true })
export class UserOrganization {
  @PrimaryGeneratedColumn()
  user_organization_id: number;

  /** The member (a users row; the users module owns it). */
  @Column({ type: 'int' })
  user_id: number;

  @Index()
  @Column({ type: 'int' })
  organization_id: number;

  @ManyToOne('Organization', (o: Organization) => o.users, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Organization;

  @Column({ type: 'int' })
  user_type_id: number;

  @ManyToOne('UserType', { eager: true })
  @JoinColumn({ name: 'user_type_id' })
  user_type?: UserType;

  @Column({ type: 'timestamptz', nullable: true })
  last_use: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
