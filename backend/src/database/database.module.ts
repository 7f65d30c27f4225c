import { DynamicModule, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UnitOfWork } from './unit-of-work';
import { DatabaseNotifications } from './database-notifications';
import { APP_ENV, AppEnv } from '../config/env';
import { EMBEDDED_DATABASE, EmbeddedDatabaseHolder, startEmbeddedPostgres } from './embedded-postgres';
import { migrations } from './migrations';
import { QueryErrorLogger } from './query-logger';
import { resilientPg } from './resilient-pg';

/** How long a request may wait for the embedded database's one connection before it is answered 503. */
const EMBEDDED_CONNECTION_WAIT_MS = 60_000;

/** TypeORM on PostgreSQL (DATABASE_URL) or the embedded PGlite; migrations run at start, never synchronize. */
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(EMBEDDED_DATABASE) private readonly embedded: EmbeddedDatabaseHolder) {}

  static forRoot(): DynamicModule {
    const holder: EmbeddedDatabaseHolder = { current: null };
    return {
      module: DatabaseModule,
      // Global so that every service can start a transaction (UnitOfWork) or listen for the database's
      // notifications (DatabaseNotifications) without importing this module.
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [APP_ENV],
          useFactory: async (env: AppEnv) => {
            let url = env.databaseUrl;
            if (!url) {
              holder.current = await startEmbeddedPostgres(env.dataDir);
              url = holder.current.url;
            }
            const schema = env.databaseSchema;
            return {
              type: 'postgres' as const,
              url,
              driver: resilientPg(env.databaseRetryMs),
              schema: schema ?? undefined,
              autoLoadEntities: true,
              synchronize: false,
              migrations,
              migrationsRun: true,
              migrationsTransactionMode: 'each' as const,
              logging: ['error' as const, 'warn' as const],
              logger: new QueryErrorLogger(),
              extra: {
                max: env.databaseUrl ? env.databasePoolSize : 1,
                // Connections, once opened, stay open: a new PostgreSQL connection loads the catalog entries of
                // every table it touches on first use, which made the first requests it served several times
                // slower (tens of milliseconds) each time an idle connection had been closed and reopened.
                min: env.databaseUrl ? env.databasePoolSize : 1,
                // A connect that gets no answer (a database host gone, packets dropped) fails and is retried. The
                // embedded database has one connection, which a request may wait for behind a long transaction
                // (a large file's passages written for an avatar take seconds there): that wait is a queue, not an
                // unreachable database, so it is not cut short.
                connectionTimeoutMillis: env.databaseUrl ? 5000 : EMBEDDED_CONNECTION_WAIT_MS,
                keepAlive: true,
                ...(schema ? { options: `-c search_path=${schema}` } : {}),
              },
            };
          },
        }),
      ],
      providers: [{ provide: EMBEDDED_DATABASE, useValue: holder }, UnitOfWork, DatabaseNotifications],
      exports: [UnitOfWork, DatabaseNotifications],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.embedded.current?.stop();
  }
}
