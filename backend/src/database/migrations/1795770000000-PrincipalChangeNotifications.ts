import { MigrationInterface, QueryRunner } from 'typeorm';
import { PRINCIPAL_CHANGED_CHANNEL } from '../notification-channels';

/**
 * Each instance keeps who a signed-in session belongs to for a moment (PrincipalCache), so a request does not
 * read the session, the user and the staff role again. Whatever could change that answer notifies every instance
 * at commit with the user's id: a session revoked, shortened or deleted; a user's email or two-factor state
 * changed or the user deleted; a staff role added, changed or removed. Triggers rather than calls from the
 * owners, so a change made by any code, a tool or a manual fix is seen too, and only once it is committed.
 */
export class PrincipalChangeNotifications1795770000000 implements MigrationInterface {
  name = 'PrincipalChangeNotifications1795770000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION principal_changed() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        PERFORM pg_notify('${PRINCIPAL_CHANGED_CHANNEL}',
          (CASE WHEN TG_OP = 'DELETE' THEN OLD.user_id ELSE NEW.user_id END)::text);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER sessions_principal_changed AFTER UPDATE OF revoked_at, expires_at, impersonated_by ON sessions
        FOR EACH ROW WHEN (NEW.revoked_at IS DISTINCT FROM OLD.revoked_at OR NEW.expires_at < OLD.expires_at
                           OR NEW.impersonated_by IS DISTINCT FROM OLD.impersonated_by)
        EXECUTE FUNCTION principal_changed()`);
    await q.query(`
      CREATE TRIGGER sessions_principal_deleted AFTER DELETE ON sessions
        FOR EACH ROW EXECUTE FUNCTION principal_changed()`);
    await q.query(`
      CREATE TRIGGER users_principal_changed AFTER UPDATE OF email, totp_enabled_at ON users
        FOR EACH ROW WHEN (NEW.email IS DISTINCT FROM OLD.email OR NEW.totp_enabled_at IS DISTINCT FROM OLD.totp_enabled_at)
        EXECUTE FUNCTION principal_changed()`);
    await q.query(`
      CREATE TRIGGER users_principal_deleted AFTER DELETE ON users
        FOR EACH ROW EXECUTE FUNCTION principal_changed()`);
    await q.query(`
      CREATE TRIGGER staff_principal_changed AFTER INSERT OR UPDATE OR DELETE ON staff
        FOR EACH ROW EXECUTE FUNCTION principal_changed()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER staff_principal_changed ON staff`);
    await q.query(`DROP TRIGGER users_principal_deleted ON users`);
    await q.query(`DROP TRIGGER users_principal_changed ON users`);
    await q.query(`DROP TRIGGER sessions_principal_deleted ON sessions`);
    await q.query(`DROP TRIGGER sessions_principal_changed ON sessions`);
    await q.query(`DROP FUNCTION principal_changed()`);
  }
}
