import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfigEntry } from './app-config.entity';
import { AppConfigService } from './app-config.service';

@Module({
  imports: [TypeOrmModule.forFeature([AppConfigEntry])],
  providers: [AppConfigService],
  exports: [AppConfigService],
})
export class AppConfigModule {}
