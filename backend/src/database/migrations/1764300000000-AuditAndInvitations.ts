import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log of staff actions, and organization invitations (adding someone by email invites them; they
 * accept signed in with that email). Audit rows keep plain ids, no foreign keys, so they outlive what they name.
 */
export class AuditAndInvitations1764300000000 implements MigrationInterface {
  name = 'AuditAndInvitations1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_events (
        audit_event_id bigserial PRIMARY KEY,
        action varchar(64) NOT NULL,
        actor_user_id int,
        actor_email varchar(254),
        actor_staff_role varchar(16),
        target_user_id int,
        target_type varchar(40),
        target_id varchar(120),
        organization_id int,
        ip varchar(64),
        user_agent varchar(300),
        details jsonb NOT NULL DEFAULT '{}'::jsonb,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX audit_events_time ON audit_events ("createdAt", audit_event_id)`);
    await q.query(`CREATE INDEX audit_events_actor ON audit_events (actor_user_id, "createdAt")`);
    await q.query(`CREATE INDEX audit_events_target ON audit_events (target_user_id, "createdAt")`);
    await q.query(`CREATE INDEX audit_events_action ON audit_events (action, "createdAt")`);

    await q.query(`
      CREATE TABLE organization_invitations (
        invitation_id serial PRIMARY KEY,
        organization_id int NOT NULL REFERENCES organizations (organization_id) ON DELETE CASCADE,
        email varchar(254) NOT NULL,
        user_type_id int NOT NULL REFERENCES user_types (user_type_id),
        token_hash char(64) NOT NULL UNIQUE,
        invited_by int REFERENCES users (user_id) ON DELETE SET NULL,
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz,
        declined_at timestamptz,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    // One open invitation per email and organization: inviting again replaces it.
    await q.query(
      `CREATE UNIQUE INDEX organization_invitations_open ON organization_invitations (organization_id, email)
        WHERE accepted_at IS NULL AND declined_at IS NULL`,
    );
    await q.query(`CREATE INDEX organization_invitations_email ON organization_invitations (email)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS organization_invitations`);
    await q.query(`DROP TABLE IF EXISTS audit_events`);
  }
}
