import { MigrationInterface, QueryRunner } from 'typeorm';
import { EMBEDDING_DIMENSIONS } from '../../modules/ai/embedding-model';
import { extensionSchema } from './extensions';

/**
 * Where the database offers pgvector (the embedded database always does), the passages' embeddings also as a
 * `vector` column with an HNSW index, so a large avatar's nearest passages are found by the index instead of only
 * re-ranking its full-text candidates. The column is generated from `embedding` (float4[], still the one the app
 * writes), so nothing writes two columns and copies between avatars stay one statement; an embedding of another
 * size (another provider's model) is left out of the index rather than refused. Where pgvector is not offered
 * nothing changes: retrieval keeps the array column.
 */
export class AvatarChunkVectors1795760000001 implements MigrationInterface {
  name = 'AvatarChunkVectors1795760000001';

  async up(q: QueryRunner): Promise<void> {
    const schema = await extensionSchema(q, 'vector');
    if (!schema) return;
    const vector = `"${schema}".vector(${EMBEDDING_DIMENSIONS})`;
    await q.query(
      `ALTER TABLE avatar_chunks ADD COLUMN embedding_vector ${vector} GENERATED ALWAYS AS
         (CASE WHEN array_length(embedding, 1) = ${EMBEDDING_DIMENSIONS} THEN embedding::${vector} END) STORED`,
    );
    await q.query(
      `CREATE INDEX avatar_chunks_embedding_hnsw ON avatar_chunks
         USING hnsw (embedding_vector "${schema}".vector_cosine_ops)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS avatar_chunks_embedding_hnsw`);
    await q.query(`ALTER TABLE avatar_chunks DROP COLUMN IF EXISTS embedding_vector`);
  }
}
