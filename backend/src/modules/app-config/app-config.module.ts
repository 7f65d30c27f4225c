import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboundModule } from '../../common/outbound/outbound.module';
import { AppConfigController } from './app-config.controller';
import { AppConfigEntry } from './app-config.entity';
import { AppConfigRepository } from './app-config.repository';
import { AppConfigService } from './app-config.service';
import { FeatureFlagsService } from './feature-flags.service';
import { FeatureGateMiddleware } from './feature-gate.middleware';

@Module({
  imports: [TypeOrmModule.forFeature([AppConfigEntry]), OutboundModule],
  controllers: [AppConfigController],
  providers: [AppConfigService, AppConfigRepository, FeatureFlagsService],
  exports: [AppConfigService, FeatureFlagsService],
})
export class AppConfigModule implements NestModule {
  /** Every request passes the feature gate (the declaration in the contracts package says what it refuses). */
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(FeatureGateMiddleware).forRoutes('{*path}');
  }
}
