import { LogLevel as NestLogLevel, INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface';
import type { Request } from 'express';
import helmet from 'helmet';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppModule } from './app.module';
import { AppConfigService } from './modules/app-config/app-config.service';
import { isWidgetApiPath, widgetKeyOfPath } from './modules/widget/widget-rules';
import { WidgetsService } from './modules/widget/widgets.service';
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

/**
 * Requests Node's HTTP parser refuses before the app sees them (headers or URL over its size limit, malformed
 * HTTP) are answered in the API's error shape, with a message, instead of Node's bare status line.
 */
export function answerUnparsableRequests(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, reason, message, code] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'The request URL or headers are too large.', 'too_large']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'The request took too long to arrive.', 'bad_input']
          : [400, 'Bad Request', 'The request is not valid HTTP.', 'bad_input'];
    const body = JSON.stringify({ statusCode: status, message, error: reason, code });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/** The websocket origin of the public address (ws: for http:, wss: for https:). */
function socketOrigin(publicUrl: string): string {
  const url = new URL(publicUrl);
  return `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`;
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
  answerUnparsableRequests(app.getHttpServer());
  app.setGlobalPrefix('api');
  // Off unless TRUST_PROXY says which proxies stand in front; otherwise anyone could choose their address.
  app.set('trust proxy', env.trustProxy);
  // Images and media load only from this origin and the hosts of the branding settings: an image URL the model
  // was tricked into writing would otherwise send conversation text to another site as it renders.
  const appConfig = app.get(AppConfigService);
  const mediaOrigins = () => appConfig.mediaOriginsNow().join(' ');
  // Loaded before the first request (2 s at most), so the first pages after a start allow the branding images.
  await Promise.race([
    appConfig.refreshMediaOrigins(),
    new Promise((done) => setTimeout(done, 2000).unref()),
  ]);
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          // The shell loads its remotes and Stripe.js; inline styles come from Mantine.
          'script-src': ["'self'", 'https://js.stripe.com', 'https://www.paypal.com'],
          'style-src': ["'self'", "'unsafe-inline'"],
          'img-src': ["'self'", 'data:', 'blob:', mediaOrigins],
          'media-src': ["'self'", 'blob:', mediaOrigins],
          'frame-src': [
            "'self'",
            'https://js.stripe.com',
            // 3-D Secure challenges open in Stripe's frames.
            'https://hooks.stripe.com',
            'https://www.youtube.com',
            'https://www.paypal.com',
          ],
          // The API and the socket of this origin ('self' covers ws: and wss: of the same host), and the payment
          // providers' APIs their scripts call.
          'connect-src': [
            "'self'",
            socketOrigin(env.publicUrl),
            'https://api.stripe.com',
            'https://m.stripe.network',
            'https://www.paypal.com',
          ],
        },
      },
      crossOriginEmbedderPolicy: false,
    }),
  );
  // The chat widget's visitor routes answer the origins their widget allows, without cookies; the rest of the
  // API answers the app's own origins.
  const widgets = app.get(WidgetsService);
  const appCors: CorsOptions = {
    origin: env.corsOrigins,
    credentials: true,
    exposedHeaders: ['X-Request-Id'],
  };
  app.enableCors((req: Request, done: (err: Error | null, options: CorsOptions) => void) => {
    if (!isWidgetApiPath(req.url)) return done(null, appCors);
    const key = widgetKeyOfPath(req.url);
    const origin = req.headers.origin;
    if (!key || !origin) return done(null, { origin: false });
    widgets.allowedOrigins(key).then(
      (allowed) =>
        done(null, {
          origin: allowed.includes(origin) ? origin : false,
          credentials: false,
          methods: ['GET', 'POST'],
          allowedHeaders: ['Authorization', 'Content-Type'],
          exposedHeaders: ['X-Request-Id', 'Retry-After'],
          maxAge: 600,
        }),
      () => done(null, { origin: false }),
    );
  });

  app.useBodyParser('json', { limit: '2mb' });
  app.useGlobalPipes(createValidationPipe());
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json' });
  return app;
}
