import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './bootstrap';
import { EnvError, loadEnv } from './config/env';

async function main(): Promise<void> {
  let env;
  try {
    env = loadEnv();
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const app = await createApp(env);
  await app.listen(env.port);
  new Logger('Main').log(`Avatar Studio on ${env.publicUrl} (role ${env.role})`);
}

void main();
