import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Words held by running generations (reserve-then-settle): a generation reserves before it starts, so the sum
 * of running reservations never exceeds the balance; settling charges the words produced and deletes the row.
 * A row past `expires_at` (its instance stopped renewing it) no longer holds anything. One row per running
 * generation, so the rows also count a user's concurrent generations.
 */
export class WordReservations1764100000001 implements MigrationInterface {
  name = 'WordReservations1764100000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE word_reservations (
        reservation_id bigserial PRIMARY KEY,
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        words int NOT NULL CHECK (words >= 0),
        reference varchar(100),
        expires_at timestamptz NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX word_reservations_user ON word_reservations (user_id, expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS word_reservations`);
  }
}
