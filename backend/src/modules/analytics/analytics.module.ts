import { Module } from '@nestjs/common';
import { ProductsModule } from '../products/products.module';
import { PurchasesModule } from '../purchases/purchases.module';
import { UsersModule } from '../users/users.module';
import { WordsModule } from '../words/words.module';
import { AnalyticsController } from './analytics.controller';
import { AnalyticsService } from './analytics.service';

/** The back office's figures. Owns no table: it asks the purchases, users and products modules. */
@Module({
  imports: [PurchasesModule, UsersModule, ProductsModule, WordsModule],
  controllers: [AnalyticsController],
  providers: [AnalyticsService],
})
export class AnalyticsModule {}
