import { Inject, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Express } from 'express';
import { APP_ENV, type AppEnv } from '../../config/env';
import { createWebHandler } from './web-handler';

/** Serves the built shell and remotes (see web-handler.ts) from the API's origin. */
@Injectable()
export class WebService implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  /**
   * Nest calls this after it has registered the API routes and before its not-found handler, so the web
   * handler sees only what the API did not answer and unknown /api paths still get the JSON 404.
   */
  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter || adapter.getType() !== 'express') return;
    adapter.getInstance<Express>().use(createWebHandler(this.env.frontendsDir));
  }
}

@Module({ providers: [WebService] })
export class WebModule {}
