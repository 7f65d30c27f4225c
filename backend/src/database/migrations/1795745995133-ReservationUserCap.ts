import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether a running generation counts toward its payer's own cap of concurrent answers: a widget's visitor
 * answers are charged to the widget's owner but bounded by the widget's own limit, so they must not keep the
 * owner from chatting.
 */
export class ReservationUserCap1795745995133 implements MigrationInterface {
  name = 'ReservationUserCap1795745995133';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE word_reservations ADD COLUMN counts_toward_user_cap boolean NOT NULL DEFAULT true`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE word_reservations DROP COLUMN counts_toward_user_cap`);
  }
}
