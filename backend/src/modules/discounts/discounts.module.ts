import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProductsModule } from '../products/products.module';
import { DiscountRedemption } from './discount-redemption.entity';
import { Discount } from './discount.entity';
import { DiscountsController } from './discounts.controller';
import { DiscountsRepository } from './discounts.repository';
import { DiscountsService } from './discounts.service';

/** Discount codes and their redemptions. */
@Module({
  imports: [TypeOrmModule.forFeature([Discount, DiscountRedemption]), ProductsModule],
  controllers: [DiscountsController],
  providers: [DiscountsRepository, DiscountsService],
  exports: [DiscountsService],
})
export class DiscountsModule {}
