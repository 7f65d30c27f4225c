import { ConsoleLogger } from '@nestjs/common';

/**
 * Nest's framework chatter at start (every module initialized, every route mapped) goes to debug, so the start
 * log at the default level is one screen: the database, the first-admin notice, the address and the role.
 */
const FRAMEWORK_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'WebSocketsController',
  'NestApplication',
]);

export class AppLogger extends ConsoleLogger {
  override log(message: unknown, ...rest: unknown[]): void {
    const context = rest[rest.length - 1];
    if (typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context)) {
      super.debug(message, ...rest);
      return;
    }
    super.log(message, ...rest);
  }
}
