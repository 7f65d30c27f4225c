import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The file attached to a conversation (one at most; a new upload replaces it). The bytes are a normal stored
 * file; `extracted_text` keeps the text read from a docx/pdf/pptx/txt once, so every answer does not re-parse
 * it (NULL for images, which go to the model as themselves).
 */
export class ConversationFiles1763840000000 implements MigrationInterface {
  name = 'ConversationFiles1763840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE conversation_files (
        conversation_id int PRIMARY KEY REFERENCES conversations(conversation_id) ON DELETE CASCADE,
        file_id int NOT NULL REFERENCES files(file_id) ON DELETE CASCADE,
        extracted_text text,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    // Deleting a stored file cascades here.
    await q.query(`CREATE INDEX conversation_files_file ON conversation_files (file_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS conversation_files`);
  }
}
