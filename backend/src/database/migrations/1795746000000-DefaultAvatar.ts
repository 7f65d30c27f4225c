import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A user's default avatar (their Super Fetch assistant): its id and key on the user. The key is kept beside the id
 * so reading a user needs no avatar; deleting the avatar empties the id (foreign key), and a key without its id is not shown.
 */
export class DefaultAvatar1795746000000 implements MigrationInterface {
  name = 'DefaultAvatar1795746000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE users ADD COLUMN default_avatar_id int NULL REFERENCES avatars(avatar_id) ON DELETE SET NULL`,
    );
    await q.query(`ALTER TABLE users ADD COLUMN default_assistant_id varchar(40) NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP COLUMN default_assistant_id`);
    await q.query(`ALTER TABLE users DROP COLUMN default_avatar_id`);
  }
}
