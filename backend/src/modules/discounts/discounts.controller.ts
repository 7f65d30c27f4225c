import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { badInput } from '../../common/errors/domain-error';
import { IdParam } from '../../common/http/id-param';
import { DiscountsService } from './discounts.service';
import {
  DiscountCodeQuery,
  DiscountInputDto,
  DiscountPageResponse,
  DiscountQuoteResponse,
  DiscountResponse,
  DiscountsQuery,
  UpdateDiscountDto,
} from './dto/discounts.dto';

@ApiTags('Discounts')
@Controller('discounts')
export class DiscountsController {
  constructor(private readonly discounts: DiscountsService) {}

  @Get('code/:code')
  @Authenticated()
  @ApiOperation({
    summary:
      "The price a discount code gives for a product: 400 'We're sorry, that discount is invalid.', 412 'We're sorry, you cannot use this discount code anymore.'",
  })
  @ApiOkResponse({ type: DiscountQuoteResponse })
  quote(
    @CurrentUser() me: Principal,
    @Param('code') code: string,
    @Query() query: DiscountCodeQuery,
  ): Promise<DiscountQuoteResponse> {
    if (code.length > 64) throw badInput("We're sorry, that discount is invalid.", 'discount_invalid');
    return this.discounts.quoteForCaller(code, query.product_id, me);
  }

  @Get()
  @Authenticated({ staff: 'manager' })
  @ApiOperation({ summary: 'Discount codes (staff), newest first' })
  @ApiOkResponse({ type: DiscountPageResponse })
  list(@Query() query: DiscountsQuery): Promise<DiscountPageResponse> {
    return this.discounts.list(query);
  }

  @Get(':discount_id')
  @Authenticated({ staff: 'manager' })
  @ApiOperation({ summary: 'One discount code (staff)' })
  @ApiOkResponse({ type: DiscountResponse })
  one(@IdParam('discount_id') discount_id: number): Promise<DiscountResponse> {
    return this.discounts.get(discount_id);
  }

  @Post()
  @Authenticated({ staff: 'manager' })
  @ApiOperation({ summary: 'Create a discount code (staff)' })
  @ApiCreatedResponse({ type: DiscountResponse })
  create(@Body() body: DiscountInputDto): Promise<DiscountResponse> {
    return this.discounts.create(body);
  }

  @Put()
  @Authenticated({ staff: 'manager' })
  @ApiOperation({ summary: 'Change a discount code (staff)' })
  @ApiOkResponse({ type: DiscountResponse })
  update(@Body() body: UpdateDiscountDto): Promise<DiscountResponse> {
    return this.discounts.update(body);
  }

  @Delete(':discount_id')
  @HttpCode(204)
  @Authenticated({ staff: 'manager' })
  @ApiOperation({
    summary: 'Switch a discount code off (staff); used codes stay on the purchases that name them',
  })
  @ApiNoContentResponse()
  async remove(@IdParam('discount_id') discount_id: number): Promise<void> {
    await this.discounts.remove(discount_id);
  }
}
