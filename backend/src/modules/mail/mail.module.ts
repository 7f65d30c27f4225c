import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboundModule } from '../../common/outbound/outbound.module';
import { AppConfigModule } from '../app-config/app-config.module';
import { MailSecret } from './mail-secret.entity';
import { MailSecretsRepository } from './mail-secrets.repository';
import { MailService } from './mail.service';

@Module({
  imports: [TypeOrmModule.forFeature([MailSecret]), AppConfigModule, OutboundModule],
  providers: [MailService, MailSecretsRepository],
  exports: [MailService],
})
export class MailModule {}
