import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../../common/auth/authenticated.decorator';
import { ScopeQuery } from '../../common/http/pagination';
import { AnalyticsService } from './analytics.service';
import {
  AnalyticsRangeQuery,
  CustomersAnalyticsResponse,
  DashboardResponse,
  IncomeResponse,
  ProductsIncomeResponse,
} from './dto/analytics.dto';

/** The back office's analytics (staff), each over [start_date, end_date), by default the current month. */
@ApiTags('analytics')
@Controller('analytics')
export class AnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  @Get('dashboard')
  @Authenticated({ staff: 'manager' })
  @ApiOperation({
    summary:
      "Today's and this month's sign-ups, income, payments, words generated and failed payments; running subscriptions and pending invoices",
  })
  @ApiOkResponse({ type: DashboardResponse })
  dashboard(@Query() _query: ScopeQuery): Promise<DashboardResponse> {
    return this.analytics.dashboard();
  }

  @Get('income')
  @Authenticated({ staff: 'manager' })
  @ApiOperation({ summary: 'Money received in the range: total, payments, and per payment method (cents)' })
  @ApiOkResponse({ type: IncomeResponse })
  income(@Query() query: AnalyticsRangeQuery): Promise<IncomeResponse> {
    return this.analytics.income(query);
  }

  @Get('purchases')
  @Authenticated({ staff: 'manager' })
  @ApiOperation({ summary: 'Purchases and money per product in the range (cents)' })
  @ApiOkResponse({ type: ProductsIncomeResponse })
  purchases(@Query() query: AnalyticsRangeQuery): Promise<ProductsIncomeResponse> {
    return this.analytics.products(query);
  }

  @Get('customers')
  @Authenticated({ staff: 'manager' })
  @ApiOperation({
    summary:
      'Customers who signed up, held a running purchase, or cancelled in the range (counts, newest 100)',
  })
  @ApiOkResponse({ type: CustomersAnalyticsResponse })
  customers(@Query() query: AnalyticsRangeQuery): Promise<CustomersAnalyticsResponse> {
    return this.analytics.customers(query);
  }
}
