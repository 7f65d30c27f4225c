import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDate, IsOptional } from 'class-validator';
import { ScopeQuery } from '../../../common/http/pagination';

/** Every analytics call: [start_date, end_date), by default the start of this month to the start of the next. */
export class AnalyticsRangeQuery extends ScopeQuery {
  @ApiPropertyOptional({ description: 'From this date (inclusive); default the start of the current month' })
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'start_date must be a date.' })
  start_date?: Date;

  @ApiPropertyOptional({ description: 'Before this date; default the start of the next month' })
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'end_date must be a date.' })
  end_date?: Date;
}

class RangeInfo {
  @ApiProperty() start_date: Date;
  @ApiProperty() end_date: Date;
}

export class PaymentMethodIncomeDto {
  @ApiProperty({ type: Number, nullable: true }) payment_method_id: number | null;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty() payments: number;
  @ApiProperty({ description: 'Cents' }) total: number;
}

export class IncomeResponse extends RangeInfo {
  @ApiProperty({ description: 'Cents' }) total_income: number;
  @ApiProperty() total_payments: number;
  @ApiProperty({ type: [PaymentMethodIncomeDto] }) payment_methods: PaymentMethodIncomeDto[];
}

export class ProductIncomeDto {
  @ApiProperty({ type: Number, nullable: true }) product_id: number | null;
  @ApiProperty() name: string;
  @ApiProperty() purchases: number;
  @ApiProperty({ description: 'Cents' }) total: number;
}

export class ProductsIncomeResponse extends RangeInfo {
  @ApiProperty({ type: [ProductIncomeDto] }) products: ProductIncomeDto[];
  @ApiProperty({ description: 'Cents' }) total: number;
}

export class AnalyticsCustomerDto {
  @ApiProperty() user_id: number;
  @ApiProperty() name: string;
  @ApiProperty() last_name: string;
  @ApiProperty() email: string;
  @ApiProperty({ description: 'Signed up, bought, or cancelled at' }) date: Date;
  @ApiPropertyOptional({ type: String, nullable: true }) cancel_reason?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) product?: string | null;
}

export class CustomerGroupDto {
  @ApiProperty() count: number;
  @ApiProperty({ type: [AnalyticsCustomerDto], description: 'The newest 100' })
  customers: AnalyticsCustomerDto[];
}

export class CustomersAnalyticsResponse extends RangeInfo {
  @ApiProperty({ type: CustomerGroupDto }) sign_ups: CustomerGroupDto;
  @ApiProperty({ type: CustomerGroupDto }) active: CustomerGroupDto;
  @ApiProperty({ type: CustomerGroupDto }) cancelled: CustomerGroupDto;
}

export class PeriodFigureDto {
  @ApiProperty({ description: 'Since the start of today (UTC)' }) today: number;
  @ApiProperty({ description: 'Since the start of this month (UTC)' }) month: number;
}

export class DashboardResponse {
  @ApiProperty({ type: PeriodFigureDto }) sign_ups: PeriodFigureDto;
  @ApiProperty({ type: PeriodFigureDto, description: 'Cents' }) income: PeriodFigureDto;
  @ApiProperty({ type: PeriodFigureDto }) payments: PeriodFigureDto;
  @ApiProperty({ type: PeriodFigureDto }) words_generated: PeriodFigureDto;
  @ApiProperty({ type: PeriodFigureDto }) failed_payments: PeriodFigureDto;
  @ApiProperty({ description: 'Subscriptions that renew (active)' }) active_subscriptions: number;
  @ApiProperty({ description: 'Invoices waiting for payment' }) pending_invoices: number;
}

export class WordsAnalyticsResponse extends RangeInfo {
  @ApiProperty({ description: 'Words generated (debited) by everyone in the range' }) words: number;
}

export class MonthIncomeDto {
  @ApiProperty({ example: '2026-11' }) month: string;
  @ApiProperty({ description: 'Cents' }) income: number;
  @ApiProperty() payments: number;
  @ApiProperty() sign_ups: number;
  @ApiProperty() words: number;
}

export class MonthlyAnalyticsResponse extends RangeInfo {
  @ApiProperty({
    type: [MonthIncomeDto],
    description: 'Each calendar month (UTC) the range touches, at most 36',
  })
  months: MonthIncomeDto[];
}
