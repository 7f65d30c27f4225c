import { Inject, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Express } from 'express';
import { APP_ENV, type AppEnv } from '../../config/env';
import { AppConfigModule } from '../app-config/app-config.module';
import { LandingService } from './landing.service';
import { createWebHandler } from './web-handler';

/** Serves the landing pages, and the built shell and remotes (see web-handler.ts), from the API's origin. */
@Injectable()
export class WebService implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(APP_ENV) private readonly env: AppEnv,
    private readonly landing: LandingService,
  ) {}

  /**
   * Nest calls this after it has registered the API routes and before its not-found handler, so the web
   * handler sees only what the API did not answer and unknown /api paths still get the JSON 404.
   */
  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter || adapter.getType() !== 'express') return;
    adapter.getInstance<Express>().use(createWebHandler(this.env.frontendsDir, this.landing));
  }
}

@Module({ imports: [AppConfigModule], providers: [WebService, LandingService] })
export class WebModule {}
