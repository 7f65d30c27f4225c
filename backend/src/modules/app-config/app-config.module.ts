import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboundModule } from '../../common/outbound/outbound.module';
import { AppConfigController } from './app-config.controller';
import { AppConfigEntry } from './app-config.entity';
import { AppConfigRepository } from './app-config.repository';
import { AppConfigService } from './app-config.service';

@Module({
  imports: [TypeOrmModule.forFeature([AppConfigEntry]), OutboundModule],
  controllers: [AppConfigController],
  providers: [AppConfigService, AppConfigRepository],
  exports: [AppConfigService],
})
export class AppConfigModule {}
