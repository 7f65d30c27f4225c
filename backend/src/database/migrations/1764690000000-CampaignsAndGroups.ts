import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Groups of an organization's users, and campaigns: documents and templates of an organization given to users
 * and groups. Links to documents and templates are kept by id (their modules own those tables); a resource
 * deleted later simply drops out of the campaign's lists.
 */
export class CampaignsAndGroups1764690000000 implements MigrationInterface {
  name = 'CampaignsAndGroups1764690000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE groups (
        group_id serial PRIMARY KEY,
        organization_id int NOT NULL REFERENCES organizations(organization_id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX groups_organization ON groups (organization_id, lower(name))`);
    await q.query(`
      CREATE TABLE group_users (
        group_id int NOT NULL REFERENCES groups(group_id) ON DELETE CASCADE,
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (group_id, user_id)
      )`);
    await q.query(`CREATE INDEX group_users_user ON group_users (user_id)`);

    await q.query(`
      CREATE TABLE campaigns (
        campaign_id serial PRIMARY KEY,
        organization_id int NOT NULL REFERENCES organizations(organization_id) ON DELETE CASCADE,
        user_id int REFERENCES users(user_id) ON DELETE SET NULL,
        name varchar(200) NOT NULL,
        description text NOT NULL DEFAULT '',
        thumbnail varchar(500),
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX campaigns_organization ON campaigns (organization_id, "createdAt" DESC)`);
    await q.query(`
      CREATE TABLE campaign_users (
        campaign_id int NOT NULL REFERENCES campaigns(campaign_id) ON DELETE CASCADE,
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (campaign_id, user_id)
      )`);
    await q.query(`CREATE INDEX campaign_users_user ON campaign_users (user_id)`);
    await q.query(`
      CREATE TABLE campaign_groups (
        campaign_id int NOT NULL REFERENCES campaigns(campaign_id) ON DELETE CASCADE,
        group_id int NOT NULL REFERENCES groups(group_id) ON DELETE CASCADE,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (campaign_id, group_id)
      )`);
    await q.query(`CREATE INDEX campaign_groups_group ON campaign_groups (group_id)`);
    await q.query(`
      CREATE TABLE campaign_resources (
        campaign_id int NOT NULL REFERENCES campaigns(campaign_id) ON DELETE CASCADE,
        type varchar(10) NOT NULL CHECK (type IN ('document', 'template')),
        resource_id int NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (campaign_id, type, resource_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS campaign_resources`);
    await q.query(`DROP TABLE IF EXISTS campaign_groups`);
    await q.query(`DROP TABLE IF EXISTS campaign_users`);
    await q.query(`DROP TABLE IF EXISTS campaigns`);
    await q.query(`DROP TABLE IF EXISTS group_users`);
    await q.query(`DROP TABLE IF EXISTS groups`);
  }
}
