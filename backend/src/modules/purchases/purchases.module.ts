import { forwardRef, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DiscountsModule } from '../discounts/discounts.module';
import { ProductsModule } from '../products/products.module';
import { UsersModule } from '../users/users.module';
import { WordsModule } from '../words/words.module';
import { Invoice } from './invoice.entity';
import { InvoicesRepository } from './invoices.repository';
import { InvoicesService } from './invoices.service';
import { PurchaseAnalyticsRepository } from './purchase-analytics.repository';
import { PurchaseAnalyticsService } from './purchase-analytics.service';
import { Purchase } from './purchase.entity';
import { AccessController, InvoicesController, PurchasesController } from './purchases.controller';
import { PurchasesRepository } from './purchases.repository';
import { PurchasesService } from './purchases.service';

/** Purchases, invoices and the access and words they give. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Purchase, Invoice]),
    ProductsModule,
    DiscountsModule,
    WordsModule,
    forwardRef(() => UsersModule),
  ],
  controllers: [PurchasesController, AccessController, InvoicesController],
  providers: [
    PurchasesRepository,
    InvoicesRepository,
    PurchasesService,
    InvoicesService,
    PurchaseAnalyticsRepository,
    PurchaseAnalyticsService,
  ],
  exports: [PurchasesService, InvoicesService, PurchaseAnalyticsService],
})
export class PurchasesModule {}
