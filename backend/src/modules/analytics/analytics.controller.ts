import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
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

  @Get('income/report')
  @Authenticated({ staff: 'manager' })
  @ApiOperation({ summary: 'The income of the range per payment method, as a CSV file' })
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'CSV', schema: { type: 'string', format: 'binary' } })
  incomeReport(@Query() query: AnalyticsRangeQuery): Promise<StreamableFile> {
    return this.file('income', query);
  }

  @Get('purchases/report')
  @Authenticated({ staff: 'manager' })
  @ApiOperation({ summary: 'Purchases and income per product in the range, as a CSV file' })
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'CSV', schema: { type: 'string', format: 'binary' } })
  purchasesReport(@Query() query: AnalyticsRangeQuery): Promise<StreamableFile> {
    return this.file('purchases', query);
  }

  @Get('customers/report')
  @Authenticated({ staff: 'manager' })
  @ApiOperation({ summary: 'Customers who signed up in the range (newest 10,000), as a CSV file' })
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'CSV', schema: { type: 'string', format: 'binary' } })
  signUpsReport(@Query() query: AnalyticsRangeQuery): Promise<StreamableFile> {
    return this.file('sign-ups', query);
  }

  private async file(kind: 'income' | 'purchases' | 'sign-ups', query: AnalyticsRangeQuery) {
    const { data, filename } = await this.analytics.report(kind, query);
    return new StreamableFile(data, {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="${filename}"`,
      length: data.length,
    });
  }
}
