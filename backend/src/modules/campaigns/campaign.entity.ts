import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { CampaignResourceType } from '@avatar-studio/contracts';

/** Documents and templates of an organization, given to some of its users and groups. */
@Entity('campaigns')
export class Campaign {
  @PrimaryGeneratedColumn()
  campaign_id: number;

  @Column({ type: 'int' })
  organization_id: number;

  /** The owner (who created it); null once their account is deleted. */
  @Column({ type: 'int', nullable: true })
  user_id: number | null;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  /** An uploaded image's src. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  thumbnail: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

/** A campaign given to one user. */
@Entity('campaign_users')
export class CampaignUser {
  @PrimaryColumn({ type: 'int' })
  campaign_id: number;

  @PrimaryColumn({ type: 'int' })
  user_id: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

/** A campaign given to every user of a group. */
@Entity('campaign_groups')
export class CampaignGroup {
  @PrimaryColumn({ type: 'int' })
  campaign_id: number;

  @PrimaryColumn({ type: 'int' })
  group_id: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

/** A document or template in a campaign (by id: the documents and templates modules own those rows). */
@Entity('campaign_resources')
export class CampaignResource {
  @PrimaryColumn({ type: 'int' })
  campaign_id: number;

  @PrimaryColumn({ type: 'varchar', length: 10 })
  type: CampaignResourceType;

  @PrimaryColumn({ type: 'int' })
  resource_id: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
