import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_ENV, AppEnv } from './env';

/** Provides the one validated AppEnv to every module. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(env: AppEnv): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: APP_ENV, useValue: env }], exports: [APP_ENV] };
  }
}
