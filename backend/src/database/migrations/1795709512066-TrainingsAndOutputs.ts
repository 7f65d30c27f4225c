import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Trainings (a dataset file turned by a job into an avatar's knowledge and a learned style guide; `checkpoint` is
 * where the job is, so a restarted worker resumes) and outputs (texts written by an avatar or a training, rated by
 * their user; the ratings feed a training's refinement).
 */
export class TrainingsAndOutputs1795709512066 implements MigrationInterface {
  name = 'TrainingsAndOutputs1795709512066';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE trainings (
        training_id serial PRIMARY KEY,
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        organization_id int REFERENCES organizations(organization_id) ON DELETE CASCADE,
        avatar_id int NOT NULL REFERENCES avatars(avatar_id) ON DELETE CASCADE,
        name varchar(255) NOT NULL,
        file_id int REFERENCES files(file_id) ON DELETE SET NULL,
        public boolean NOT NULL DEFAULT false,
        state varchar(20) NOT NULL DEFAULT 'draft',
        stage varchar(20),
        progress int NOT NULL DEFAULT 0,
        error text,
        checkpoint jsonb,
        style_guide text NOT NULL DEFAULT '',
        avatar_file_id int,
        started_at timestamptz,
        executed_at timestamptz,
        synced_at timestamptz,
        refined_at timestamptz,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX trainings_owner_scope ON trainings (user_id, (COALESCE(organization_id, 0)), "createdAt" DESC)`,
    );
    await q.query(
      `CREATE INDEX trainings_organization ON trainings (organization_id) WHERE organization_id IS NOT NULL`,
    );
    await q.query(`CREATE INDEX trainings_public ON trainings ("createdAt" DESC) WHERE public`);
    await q.query(
      `CREATE INDEX trainings_running ON trainings (started_at) WHERE state IN ('queued', 'running')`,
    );
    await q.query(`
      CREATE TABLE outputs (
        output_id serial PRIMARY KEY,
        user_id int NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
        organization_id int REFERENCES organizations(organization_id) ON DELETE CASCADE,
        avatar_id int NOT NULL REFERENCES avatars(avatar_id) ON DELETE CASCADE,
        training_id int REFERENCES trainings(training_id) ON DELETE CASCADE,
        prompt text NOT NULL,
        content text,
        status varchar(20) NOT NULL DEFAULT 'complete',
        rating varchar(10),
        rating_note text,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX outputs_avatar ON outputs (avatar_id, user_id, "createdAt" DESC)`);
    await q.query(
      `CREATE INDEX outputs_training ON outputs (training_id, "createdAt" DESC) WHERE training_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE outputs');
    await q.query('DROP TABLE trainings');
  }
}
