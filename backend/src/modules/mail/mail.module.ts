import { Module } from '@nestjs/common';
import { OutboundModule } from '../../common/outbound/outbound.module';
import { AppConfigModule } from '../app-config/app-config.module';
import { MailService } from './mail.service';

@Module({
  imports: [AppConfigModule, OutboundModule],
  providers: [MailService],
  exports: [MailService],
})
export class MailModule {}
