import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboundModule } from '../../common/outbound/outbound.module';
import { ProductWebhookJobs } from './jobs/product-webhook.job';
import { Product } from './product.entity';
import { ProductsController, TestPurchaseController } from './products.controller';
import { ProductsRepository } from './products.repository';
import { ProductsService } from './products.service';

/** Products: what customers can buy (platform or one organization's), and test purchases to their webhooks. */
@Module({
  imports: [TypeOrmModule.forFeature([Product]), OutboundModule],
  controllers: [ProductsController, TestPurchaseController],
  providers: [ProductsRepository, ProductsService, ProductWebhookJobs],
  exports: [ProductsService],
})
export class ProductsModule {}
