import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AvatarsModule } from '../avatars/avatars.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { PaymentsModule } from '../payments/payments.module';
import { TutorialsModule } from '../tutorials/tutorials.module';
import { ProductsModule } from '../products/products.module';
import { PurchasesModule } from '../purchases/purchases.module';
import { UsersModule } from '../users/users.module';
import { WordsModule } from '../words/words.module';
import { AnalyticsController } from './analytics.controller';
import {
  AnalyticsCounter,
  CancellationsDaily,
  CustomerInverted,
  CustomerSpan,
  CustomerSpansDaily,
  DueDaily,
  MoneyDaily,
  SignUpsDaily,
  WordsDaily,
} from './analytics-figures.entity';
import { AnalyticsFiguresRepository } from './analytics-figures.repository';
import { AnalyticsService } from './analytics.service';

/**
 * The back office's figures. Owns the per-day summary tables (analytics_*), which the AnalyticsDailyFigures
 * migration's triggers keep current; for the rows themselves it asks the modules that own them.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      MoneyDaily,
      SignUpsDaily,
      WordsDaily,
      DueDaily,
      AnalyticsCounter,
      CancellationsDaily,
      CustomerSpan,
      CustomerSpansDaily,
      CustomerInverted,
    ]),
    PurchasesModule,
    UsersModule,
    ProductsModule,
    WordsModule,
    ConversationsModule,
    AvatarsModule,
    TutorialsModule,
    PaymentsModule,
  ],
  controllers: [AnalyticsController],
  providers: [AnalyticsService, AnalyticsFiguresRepository],
  exports: [AnalyticsService],
})
export class AnalyticsModule {}
