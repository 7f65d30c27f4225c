import { LogLevel as NestLogLevel, INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import helmet from 'helmet';
import { AppModule } from './app.module';
import { AppLogger } from './common/logging/app-logger';
import { createValidationPipe } from './common/http/validation';
import type { AppEnv } from './config/env';

const LEVELS: NestLogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Avatar Studio API')
    .setDescription(
      'Errors answer `{ statusCode, message, error, code }`. Send `?organization_id=` on any call to act in an organization. ' +
        'Authenticate with `Authorization: Bearer <access token or personal API key>`.',
    )
    .setVersion('1')
    .addBearerAuth()
    .build();
  return SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controllerKey, methodKey) =>
      `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
}

function appLogger(env: AppEnv): AppLogger {
  const logger = new AppLogger();
  logger.setLogLevels(LEVELS.slice(0, LEVELS.indexOf(env.logLevel) + 1));
  return logger;
}

/** Builds the whole app (used by main.ts, the API tests and the OpenAPI writer). */
export async function createApp(
  env: AppEnv,
  options: { logger?: boolean } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(env), {
    logger: options.logger === false ? false : appLogger(env),
    bufferLogs: false,
    rawBody: true,
  });
  app.setGlobalPrefix('api');
  // Off unless TRUST_PROXY says which proxies stand in front; otherwise anyone could choose their address.
  app.set('trust proxy', env.trustProxy);
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          // The shell loads its remotes and Stripe.js; inline styles come from Mantine.
          'script-src': ["'self'", 'https://js.stripe.com', 'https://www.paypal.com'],
          'style-src': ["'self'", "'unsafe-inline'"],
          'img-src': ["'self'", 'data:', 'blob:', 'https:'],
          'media-src': ["'self'", 'blob:', 'https:'],
          'frame-src': [
            "'self'",
            'https://js.stripe.com',
            'https://www.youtube.com',
            'https://www.paypal.com',
          ],
          'connect-src': ["'self'", 'ws:', 'wss:'],
        },
      },
      crossOriginEmbedderPolicy: false,
    }),
  );
  app.enableCors({ origin: env.corsOrigins, credentials: true, exposedHeaders: ['X-Request-Id'] });
  app.useBodyParser('json', { limit: '2mb' });
  app.useGlobalPipes(createValidationPipe());
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json' });
  return app;
}
