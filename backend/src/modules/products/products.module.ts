import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Product } from './product.entity';
import { ProductsRepository } from './products.repository';

/** Products: what customers can buy (platform or one organization's). */
@Module({
  imports: [TypeOrmModule.forFeature([Product])],
  providers: [ProductsRepository],
})
export class ProductsModule {}
