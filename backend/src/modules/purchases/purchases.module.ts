import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Invoice } from './invoice.entity';
import { InvoicesRepository } from './invoices.repository';
import { Purchase } from './purchase.entity';
import { PurchasesRepository } from './purchases.repository';

/** Purchases, invoices and the access and words they give. */
@Module({
  imports: [TypeOrmModule.forFeature([Purchase, Invoice])],
  providers: [PurchasesRepository, InvoicesRepository],
})
export class PurchasesModule {}
