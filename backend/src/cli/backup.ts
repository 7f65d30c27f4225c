import { join, resolve } from 'node:path';
import { EnvError, loadStorageEnv } from '../config/env';
import { BackupError, createBackup, restoreBackup } from '../database/embedded-backup';

const USAGE = `Usage:
  npm run backup [-- <folder>]     back up the embedded database and files of DATA_DIR (default ./data)
                                   into <folder> (default ./backups/<date-time>), also while the app runs
  npm run restore -- <folder>      restore a backup into DATA_DIR, which must hold no database yet`;

function timestamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-').replace('T', '_').slice(0, 19);
}

async function main(argv: string[]): Promise<number> {
  const [command, folder] = argv;
  let storage;
  try {
    storage = loadStorageEnv();
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(`Configuration error: ${err.message}`);
      return 2;
    }
    throw err;
  }
  if (storage.databaseUrl) {
    console.error(
      "DATABASE_URL is set: back up PostgreSQL with its own tools (pg_dump / pg_restore, or your provider's snapshots), and the files with your S3 bucket's versioning or a copy of DATA_DIR/files.",
    );
    return 2;
  }
  if (command === 'backup') {
    const dest = resolve(folder ?? join('backups', timestamp()));
    const manifest = await createBackup(storage.dataDir, dest);
    console.log(
      `Backed up ${storage.dataDir} into ${dest} (${manifest.files} files${manifest.app_running ? ', while the app was running' : ''}).`,
    );
    return 0;
  }
  if (command === 'restore' && folder) {
    await restoreBackup(folder, storage.dataDir);
    console.log(
      `Restored ${resolve(folder)} into ${storage.dataDir}. Start the app with DATA_DIR=${storage.dataDir}.`,
    );
    return 0;
  }
  console.error(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof BackupError) {
      console.error(err.message);
      process.exit(1);
    }
    console.error(err);
    process.exit(1);
  },
);
