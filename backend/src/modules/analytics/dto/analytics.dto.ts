import { ApiProperty, ApiPropertyOptional, IntersectionType, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDate, IsIn, IsOptional } from 'class-validator';
import { PageInfo, PageQuery, ScopeQuery } from '../../../common/http/pagination';

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

export class CustomerCountDto {
  @ApiProperty() count: number;
}

export class CustomersAnalyticsResponse extends RangeInfo {
  @ApiProperty({ type: CustomerCountDto }) sign_ups: CustomerCountDto;
  @ApiProperty({ type: CustomerCountDto }) active: CustomerCountDto;
  @ApiProperty({ type: CustomerCountDto }) cancelled: CustomerCountDto;
}

/** The customers cards, each with its own table. */
export const CUSTOMER_GROUPS = ['sign_ups', 'active', 'cancelled'] as const;
export type CustomerGroup = (typeof CUSTOMER_GROUPS)[number];

export class CustomerGroupParams {
  @ApiProperty({ enum: CUSTOMER_GROUPS })
  @IsIn(CUSTOMER_GROUPS, { message: `group must be one of ${CUSTOMER_GROUPS.join(', ')}.` })
  group: CustomerGroup;
}

/** A range and a page (of 20 by default). */
export class CustomersPageQuery extends IntersectionType(
  AnalyticsRangeQuery,
  PickType(PageQuery, ['page', 'limit']),
) {}

export class CustomersPageResponse extends IntersectionType(
  RangeInfo,
  PickType(PageInfo, ['page', 'limit']),
) {
  @ApiProperty({ type: [AnalyticsCustomerDto], description: 'Newest first' })
  customers: AnalyticsCustomerDto[];
}

export class PeriodFigureDto {
  @ApiProperty({ description: 'Since the start of today (UTC)' }) today: number;
  @ApiProperty({ description: 'Since the start of this month (UTC)' }) month: number;
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

export class FreeTrialProductDto {
  @ApiProperty() product_id: number;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Subscriptions that began with a free trial in the range' }) started: number;
  @ApiProperty({ description: 'Of those, paid since (a completed charge after the trial)' })
  converted: number;
  @ApiProperty({ description: 'Of those, cancelled or revoked since' }) cancelled: number;
}

export class FreeTrialsResponse extends RangeInfo {
  @ApiProperty() started: number;
  @ApiProperty() converted: number;
  @ApiProperty() cancelled: number;
  @ApiProperty({ type: [FreeTrialProductDto] }) products: FreeTrialProductDto[];
}

export class InstructorUsageDto {
  @ApiProperty() avatar_id: number;
  @ApiProperty({ description: "The avatar's name ('#id' once deleted)" }) name: string;
  @ApiProperty({ type: Boolean, nullable: true, description: 'Null once deleted' }) public: boolean | null;
  @ApiProperty({ description: 'Conversations opened with the avatar in the range' }) conversations: number;
  @ApiProperty({ description: 'Users who opened them' }) users: number;
}

export class InstructorsResponse extends RangeInfo {
  @ApiProperty({ description: 'Avatars created in the range' }) avatars_created: number;
  @ApiProperty({ description: 'Conversations opened with any avatar in the range' }) conversations: number;
  @ApiProperty({
    type: [InstructorUsageDto],
    description: 'Avatars used in the range, most used first (at most 100)',
  })
  avatars: InstructorUsageDto[];
}

export class ExpectedRenewalDto {
  @ApiProperty() purchase_id: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Null once the customer was deleted' })
  user_id: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Null once the customer was deleted' })
  customer: string | null;
  @ApiProperty() product: string;
  @ApiProperty({ description: 'Cents' }) amount: number;
  @ApiProperty({ description: 'When the paid period ends and the next charge is due' }) date: Date;
}

export class OpenInvoiceDueDto {
  @ApiProperty() invoice_id: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Null once the customer was deleted' })
  user_id: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Null once the customer was deleted' })
  customer: string | null;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ description: 'Cents' }) amount: number;
  @ApiProperty({ description: 'Pay by' }) date: Date;
}

export class ExpectedRenewalsDto {
  @ApiProperty() count: number;
  @ApiProperty({ description: 'Cents' }) total: number;
  @ApiProperty({ type: [ExpectedRenewalDto], description: 'The soonest 100' }) items: ExpectedRenewalDto[];
}

export class OpenInvoicesDueDto {
  @ApiProperty() count: number;
  @ApiProperty({ description: 'Cents' }) total: number;
  @ApiProperty({ type: [OpenInvoiceDueDto], description: 'The soonest 100' }) items: OpenInvoiceDueDto[];
}

export class ReservationsResponse extends RangeInfo {
  @ApiProperty({ description: 'Cents: renewals and open invoices expected in the range' })
  expected_total: number;
  @ApiProperty({ type: ExpectedRenewalsDto }) renewals: ExpectedRenewalsDto;
  @ApiProperty({ type: OpenInvoicesDueDto }) open_invoices: OpenInvoicesDueDto;
}

export class TutorialPlaysDto {
  @ApiProperty() tutorial_id: number;
  @ApiProperty() name: string;
  @ApiProperty() language: string;
  @ApiProperty() plays: number;
  @ApiProperty({ description: 'Signed-in users who played it' }) viewers: number;
}

export class VideosResponse extends RangeInfo {
  @ApiProperty({ description: 'Tutorial plays in the range' }) plays: number;
  @ApiProperty({ type: [TutorialPlaysDto], description: 'Most played first' }) tutorials: TutorialPlaysDto[];
}

export class FailedJobsDto {
  @ApiProperty({ example: 'email' }) queue: string;
  @ApiProperty() failed: number;
}

export class WebhookFailuresDto {
  @ApiProperty({ description: 'Payment webhook events that failed for good in the last 7 days' })
  count: number;
  @ApiProperty({ type: Date, nullable: true }) last: Date | null;
}

export class DashboardResponse {
  @ApiProperty({ type: PeriodFigureDto }) sign_ups: PeriodFigureDto;
  @ApiProperty({ type: PeriodFigureDto, description: 'Cents' }) income: PeriodFigureDto;
  @ApiProperty({ type: PeriodFigureDto }) payments: PeriodFigureDto;
  @ApiProperty({ type: PeriodFigureDto }) words_generated: PeriodFigureDto;
  @ApiProperty({ type: PeriodFigureDto }) failed_payments: PeriodFigureDto;
  @ApiProperty({ description: 'Subscriptions that renew (active)' }) active_subscriptions: number;
  @ApiProperty({ description: 'Invoices waiting for payment' }) pending_invoices: number;
  @ApiProperty({ type: WebhookFailuresDto }) webhook_failures: WebhookFailuresDto;
  @ApiProperty({
    type: [FailedJobsDto],
    nullable: true,
    description:
      'Background jobs that failed their last try, per queue; null when the queue store did not answer',
  })
  failed_jobs: FailedJobsDto[] | null;
}
