import { MigrationInterface, QueryRunner } from 'typeorm';

/** The advisory lock class of the conversations' previous-with-avatar times (with the user_id as the second key). */
const PREVIOUS_LOCK = 1095651;
/** The most users one statement locks one by one; more take the class's lock for all. */
const PREVIOUS_LOCKS_MAX = 64;

/** The avatar a conversation is used with: a chat with the avatar, or the user's thread with it. */
const AVATAR = 'COALESCE(avatar_id, thread_avatar_id)';

/**
 * The avatars' usage counts each avatar's users in a range exactly without a distinct count. A conversation with
 * an avatar carries `previous_with_avatar_at`: when the same user's previous conversation with the same avatar was
 * created (in creation order, ties by id), null for their first. Of one user's conversations with an avatar in
 * [from, to) exactly one, the first, has no previous one at or after `from`; so an avatar's users in the range are
 * its conversations there whose previous one is null or before `from`: a count over the rows the range's index
 * hands back, where the distinct count sorted them.
 *
 * Kept by triggers on conversations in the same transaction as any write (the repository's, a user's deletion
 * cascading, a bulk seed): after inserts and deletes, the users and avatars the statement touched have their
 * conversations' times recomputed (a window over each user's conversations with that avatar, writing only the
 * rows that change); after an update that moves a conversation to another avatar, user or time, the old and the
 * new pair are. An advisory lock per user, taken in id order, makes two transactions writing one user's
 * conversations take turns, and the second's recomputation sees what the first committed.
 */
export class AvatarUsagePreviousConversation1795790000000 implements MigrationInterface {
  name = 'AvatarUsagePreviousConversation1795790000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE conversations ADD COLUMN previous_with_avatar_at timestamptz`);
    // The recomputation's lookup: one user's conversations with one avatar, in creation order. (The index
    // statements are written out whole: bench/analytics.mjs replays them from this file.)
    await q.query(
      `CREATE INDEX conversations_user_avatar
         ON conversations (user_id, (COALESCE(avatar_id, thread_avatar_id)), "createdAt", conversation_id)
         WHERE COALESCE(avatar_id, thread_avatar_id) IS NOT NULL`,
    );
    // Writes wait until the triggers exist and the backfill is done, so no conversation is missed.
    await q.query(`LOCK TABLE conversations IN SHARE ROW EXCLUSIVE MODE`);
    await q.query(`
      CREATE FUNCTION conversations_previous_with_avatar_of(avatar_ids int[], user_ids int[]) RETURNS void
      LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        IF user_ids IS NULL OR cardinality(user_ids) = 0 THEN RETURN; END IF;
        IF cardinality(user_ids) > ${PREVIOUS_LOCKS_MAX} THEN
          PERFORM pg_advisory_xact_lock(${PREVIOUS_LOCK}, 0);
        ELSE
          PERFORM pg_advisory_xact_lock_shared(${PREVIOUS_LOCK}, 0);
          PERFORM pg_advisory_xact_lock(${PREVIOUS_LOCK}, u) FROM (SELECT DISTINCT unnest(user_ids) AS u ORDER BY 1) x;
        END IF;
        UPDATE conversations c SET previous_with_avatar_at = p.previous
          FROM (
            SELECT conversation_id,
                   lag("createdAt") OVER (PARTITION BY user_id, ${AVATAR} ORDER BY "createdAt", conversation_id)
                     AS previous
              FROM conversations
             WHERE ${AVATAR} IS NOT NULL
               AND (user_id, ${AVATAR}) IN (SELECT u, a FROM unnest(user_ids, avatar_ids) AS pairs (u, a))
          ) p
         WHERE c.conversation_id = p.conversation_id AND c.previous_with_avatar_at IS DISTINCT FROM p.previous;
      END $$`);
    for (const [op, rows] of [
      ['INSERT', 'new_rows'],
      ['DELETE', 'old_rows'],
    ] as const) {
      await q.query(`
        CREATE FUNCTION conversations_previous_with_avatar_after_${op.toLowerCase()}() RETURNS trigger
        LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
        BEGIN
          PERFORM conversations_previous_with_avatar_of(array_agg(a ORDER BY u, a), array_agg(u ORDER BY u, a))
             FROM (SELECT DISTINCT ${AVATAR} AS a, user_id AS u FROM ${rows} WHERE ${AVATAR} IS NOT NULL) touched;
          RETURN NULL;
        END $$`);
      await q.query(
        `CREATE TRIGGER conversations_previous_with_avatar_${op.toLowerCase()} AFTER ${op} ON conversations
           REFERENCING ${op === 'INSERT' ? 'NEW' : 'OLD'} TABLE AS ${rows}
           FOR EACH STATEMENT EXECUTE FUNCTION conversations_previous_with_avatar_after_${op.toLowerCase()}()`,
      );
    }
    // Transition tables cannot go with a column list, so updates are seen row by row, and only those that move a
    // conversation (the recomputation's own writes name no column of the list).
    await q.query(`
      CREATE FUNCTION conversations_previous_with_avatar_after_update() RETURNS trigger
      LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        IF COALESCE(NEW.avatar_id, NEW.thread_avatar_id) IS NULL AND NEW.previous_with_avatar_at IS NOT NULL THEN
          UPDATE conversations SET previous_with_avatar_at = NULL WHERE conversation_id = NEW.conversation_id;
        END IF;
        PERFORM conversations_previous_with_avatar_of(array_agg(a ORDER BY u, a), array_agg(u ORDER BY u, a))
           FROM (SELECT DISTINCT a, u FROM (VALUES
                   (COALESCE(OLD.avatar_id, OLD.thread_avatar_id), OLD.user_id),
                   (COALESCE(NEW.avatar_id, NEW.thread_avatar_id), NEW.user_id)) AS moved (a, u)
                  WHERE a IS NOT NULL) touched;
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER conversations_previous_with_avatar_update
         AFTER UPDATE OF avatar_id, thread_avatar_id, user_id, "createdAt" ON conversations
         FOR EACH ROW
         WHEN (OLD.avatar_id IS DISTINCT FROM NEW.avatar_id OR OLD.thread_avatar_id IS DISTINCT FROM NEW.thread_avatar_id
               OR OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD."createdAt" IS DISTINCT FROM NEW."createdAt")
         EXECUTE FUNCTION conversations_previous_with_avatar_after_update()`,
    );
    // The backfill: every user's conversations with every avatar, by the same function the triggers use.
    await q.query(`
      SELECT conversations_previous_with_avatar_of(array_agg(a ORDER BY u, a), array_agg(u ORDER BY u, a))
        FROM (SELECT DISTINCT ${AVATAR} AS a, user_id AS u FROM conversations WHERE ${AVATAR} IS NOT NULL) every_pair`);
    // The range's rows with what the count needs, from the index alone (the user is no longer read).
    await q.query(`DROP INDEX conversations_avatar_created`);
    await q.query(
      `CREATE INDEX conversations_avatar_created ON conversations ("createdAt")
         INCLUDE (avatar_id, thread_avatar_id, previous_with_avatar_at)
         WHERE COALESCE(avatar_id, thread_avatar_id) IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX conversations_avatar_created`);
    await q.query(
      `CREATE INDEX conversations_avatar_created ON conversations ("createdAt")
         INCLUDE (avatar_id, thread_avatar_id, user_id) WHERE ${AVATAR} IS NOT NULL`,
    );
    await q.query(`DROP TRIGGER conversations_previous_with_avatar_update ON conversations`);
    await q.query(`DROP TRIGGER conversations_previous_with_avatar_insert ON conversations`);
    await q.query(`DROP TRIGGER conversations_previous_with_avatar_delete ON conversations`);
    for (const op of ['insert', 'delete', 'update'])
      await q.query(`DROP FUNCTION conversations_previous_with_avatar_after_${op}()`);
    await q.query(`DROP FUNCTION conversations_previous_with_avatar_of(int[], int[])`);
    await q.query(`DROP INDEX conversations_user_avatar`);
    await q.query(`ALTER TABLE conversations DROP COLUMN previous_with_avatar_at`);
  }
}
