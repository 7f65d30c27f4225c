import { Global, Module } from '@nestjs/common';
import { AppConfigModule } from '../app-config/app-config.module';
import { RealtimeGateway } from './realtime.gateway';
import { RealtimeService } from './realtime.service';

/** The Socket.IO channel. Global, so any feature (and auth, to end sessions) can inject RealtimeService. */
@Global()
@Module({
  imports: [AppConfigModule],
  providers: [RealtimeGateway, RealtimeService],
  exports: [RealtimeService],
})
export class RealtimeModule {}
