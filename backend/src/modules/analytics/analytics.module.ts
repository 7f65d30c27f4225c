import { Module } from '@nestjs/common';
import { AvatarsModule } from '../avatars/avatars.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { PaymentsModule } from '../payments/payments.module';
import { TutorialsModule } from '../tutorials/tutorials.module';
import { ProductsModule } from '../products/products.module';
import { PurchasesModule } from '../purchases/purchases.module';
import { UsersModule } from '../users/users.module';
import { WordsModule } from '../words/words.module';
import { AnalyticsController } from './analytics.controller';
import { AnalyticsService } from './analytics.service';

/** The back office's figures. Owns no table: it asks the modules that own the figures' tables. */
@Module({
  imports: [
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
  providers: [AnalyticsService],
})
export class AnalyticsModule {}
