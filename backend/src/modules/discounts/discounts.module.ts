import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DiscountRedemption } from './discount-redemption.entity';
import { Discount } from './discount.entity';
import { DiscountsRepository } from './discounts.repository';

/** Discount codes and their redemptions. */
@Module({
  imports: [TypeOrmModule.forFeature([Discount, DiscountRedemption])],
  providers: [DiscountsRepository],
})
export class DiscountsModule {}
