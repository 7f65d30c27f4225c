/**
 * Writes backend/openapi.json from the code (booting the app on a throw-away embedded database).
 * With --check, fails when the committed document differs from the code.
 */
import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenApiDocument, createApp } from '../src/bootstrap';
import { loadEnv } from '../src/config/env';

export const OPENAPI_PATH = join(__dirname, '..', 'openapi.json');

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'openapi-'));
  const env = loadEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'error' });
  const app = await createApp(env, { logger: false });
  const text = JSON.stringify(buildOpenApiDocument(app), null, 2) + '\n';
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (process.argv.includes('--check')) {
    const committed = readFileSync(OPENAPI_PATH, 'utf8');
    if (committed !== text) {
      console.error('backend/openapi.json is stale: run `npm run openapi` and commit the result.');
      process.exit(1);
    }
    console.log('backend/openapi.json is current.');
    return;
  }
  writeFileSync(OPENAPI_PATH, text);
  console.log(`Wrote ${OPENAPI_PATH}`);
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
