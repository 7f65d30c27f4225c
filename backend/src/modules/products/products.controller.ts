import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { IdParam } from '../../common/http/id-param';
import {
  AvailableProductsQuery,
  ProductInputDto,
  ProductListResponse,
  ProductPageResponse,
  ProductResponse,
  ProductsQuery,
  TestPurchaseDto,
  TestPurchaseResponse,
  UpdateProductDto,
} from './dto/products.dto';
import { ProductWebhookJobs } from './jobs/product-webhook.job';
import { ProductsService } from './products.service';

@ApiTags('Products')
@Controller('products')
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Get('available')
  @Authenticated()
  @ApiOperation({
    summary: "What the caller may buy in the current scope (the organization's, or the platform's)",
  })
  @ApiOkResponse({ type: ProductListResponse })
  async available(
    @CurrentUser() me: Principal,
    @Query() _query: AvailableProductsQuery,
  ): Promise<ProductListResponse> {
    return { products: await this.products.available(me) };
  }

  @Get()
  @Authenticated()
  @ApiOperation({
    summary:
      "Products for the back office (staff: all, or one organization's with ?organization_id=; an organization's Admin: its own)",
  })
  @ApiOkResponse({ type: ProductPageResponse })
  list(@CurrentUser() me: Principal, @Query() query: ProductsQuery): Promise<ProductPageResponse> {
    return this.products.list(me, query);
  }

  @Get(':product_id')
  @Authenticated()
  @ApiOperation({ summary: 'One product (customers: one they may buy)' })
  @ApiOkResponse({ type: ProductResponse })
  one(
    @CurrentUser() me: Principal,
    @IdParam('product_id') product_id: number,
    @Query() _query: AvailableProductsQuery,
  ): Promise<ProductResponse> {
    return this.products.getVisible(product_id, me);
  }

  @Post()
  @Authenticated()
  @ApiOperation({
    summary: "Create a product (staff, or an organization's Admin in its scope); 400 lists every rule broken",
  })
  @ApiCreatedResponse({ type: ProductResponse })
  create(
    @CurrentUser() me: Principal,
    @Body() body: ProductInputDto,
    @Query() _query: AvailableProductsQuery,
  ): Promise<ProductResponse> {
    return this.products.create(me, body);
  }

  @Put()
  @Authenticated()
  @ApiOperation({ summary: 'Change a product (same rules as create)' })
  @ApiOkResponse({ type: ProductResponse })
  update(
    @CurrentUser() me: Principal,
    @Body() body: UpdateProductDto,
    @Query() _query: AvailableProductsQuery,
  ): Promise<ProductResponse> {
    return this.products.update(me, body);
  }
}

@ApiTags('Products')
@Controller('purchases')
export class TestPurchaseController {
  constructor(private readonly webhooks: ProductWebhookJobs) {}

  @Post('test')
  @HttpCode(202)
  @Authenticated({ staff: 'manager' })
  @ApiOperation({
    summary: "Fire the product's webhook_url with a signed test purchase (queued, retried with back-off)",
  })
  @ApiAcceptedResponse({ type: TestPurchaseResponse })
  async test(@Body() body: TestPurchaseDto): Promise<TestPurchaseResponse> {
    return { queued: true, event_id: await this.webhooks.queueTest(body) };
  }
}
