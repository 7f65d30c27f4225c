import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tutorial videos staff publish per language, and each play of one (analytics reads them). */
export class Tutorials1764682000000 implements MigrationInterface {
  name = 'Tutorials1764682000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tutorials (
        tutorial_id serial PRIMARY KEY,
        name varchar(200) NOT NULL,
        thumbnail text,
        "order" integer NOT NULL DEFAULT 0,
        src text NOT NULL,
        language varchar(5) NOT NULL DEFAULT 'en',
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX tutorials_language ON tutorials (language, "order", tutorial_id)`);
    await q.query(`
      CREATE TABLE tutorial_plays (
        play_id serial PRIMARY KEY,
        tutorial_id integer NOT NULL REFERENCES tutorials(tutorial_id) ON DELETE CASCADE,
        user_id integer REFERENCES users(user_id) ON DELETE SET NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX tutorial_plays_time ON tutorial_plays (tutorial_id, "createdAt")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS tutorial_plays`);
    await q.query(`DROP TABLE IF EXISTS tutorials`);
  }
}
