import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDate, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { INVOICE_STATUSES, PURCHASE_STATUSES, PURCHASE_STORED_STATUSES } from '@avatar-studio/contracts';
import { MAX_ID } from '../../../common/http/id-param';
import { PageInfo, PageQuery } from '../../../common/http/pagination';

const Id =
  (name: string, optional = false) =>
  (target: object, key: string) => {
    if (optional) IsOptional()(target, key);
    Type(() => Number)(target, key);
    IsInt({ message: `${name} must be a whole number.` })(target, key);
    Min(1, { message: `${name} must be a whole number.` })(target, key);
    Max(MAX_ID, { message: `${name} must be a whole number.` })(target, key);
  };
const Cents = (name: string) => (target: object, key: string) => {
  IsOptional()(target, key);
  IsInt({ message: `${name} must be a whole number of cents.` })(target, key);
  Min(0, { message: `${name} must be 0 or more.` })(target, key);
  Max(100_000_000, { message: `${name} must be 100000000 or less.` })(target, key);
};

export class PurchaseUserDto {
  @ApiProperty() user_id: number;
  @ApiProperty() name: string;
  @ApiProperty() last_name: string;
  @ApiProperty() email: string;
}

export class PurchaseProductDto {
  @ApiProperty() product_id: number;
  @ApiProperty() name: string;
}

export class PurchaseDto {
  @ApiProperty() purchase_id: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Null once the customer was deleted' })
  user_id: number | null;
  @ApiProperty() product_id: number;
  @ApiProperty({ type: Number, nullable: true }) organization_id: number | null;
  @ApiProperty({ enum: PURCHASE_STORED_STATUSES }) status: string;
  @ApiProperty({ description: 'Cents' }) amount: number;
  @ApiProperty() currency: string;
  @ApiProperty({ type: Number, nullable: true }) expiration_days: number | null;
  @ApiProperty({ type: Date, nullable: true, description: 'When access and words end' })
  expires_at: Date | null;
  @ApiProperty() is_gift: boolean;
  @ApiProperty({ type: Number, nullable: true }) payment_method_id: number | null;
  @ApiProperty({ type: String, nullable: true }) cancel_reason: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The discount code used' }) discount:
    string | null;
  @ApiProperty({ type: String, nullable: true }) subscription_id: string | null;
  @ApiProperty({ type: Number, nullable: true }) free_trial_length: number | null;
  @ApiProperty({ type: Number, nullable: true }) subscription_interval: number | null;
  @ApiProperty({ type: String, nullable: true }) subscription_period: string | null;
  @ApiProperty({ type: String, nullable: true }) payment_processor_id: string | null;
  @ApiProperty({ type: Date, nullable: true }) current_period_end: Date | null;
  @ApiProperty() cancel_at_period_end: boolean;
  @ApiProperty({ description: 'Cents given back' }) refunded_amount: number;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
  @ApiPropertyOptional({ type: PurchaseProductDto, nullable: true }) product?: PurchaseProductDto | null;
  @ApiPropertyOptional({ type: PurchaseUserDto, nullable: true }) user?: PurchaseUserDto | null;
}

export class PurchaseResponse {
  @ApiProperty({ type: PurchaseDto }) purchase: PurchaseDto;
}

export class PurchasePageResponse extends PageInfo {
  @ApiProperty({ type: [PurchaseDto] }) purchases: PurchaseDto[];
}

export class OwnPurchasesQuery extends PageQuery {}

export class AdminPurchasesQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'From this date (inclusive)' })
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'start_date must be a date.' })
  start_date?: Date;

  @ApiPropertyOptional({ description: 'Before this date' })
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'end_date must be a date.' })
  end_date?: Date;

  @ApiPropertyOptional({
    enum: ['all', 'successful', 'failed', 'pending'],
    description:
      'Successful = active, completed, success; Failed = failed, cancelled; Pending = pending, processing, on-hold',
  })
  @IsOptional()
  @IsIn(['all', 'successful', 'failed', 'pending'], {
    message: 'status must be all, successful, failed or pending.',
  })
  status?: string;

  @ApiPropertyOptional({ enum: ['all', 'purchases', 'invoices'] })
  @IsOptional()
  @IsIn(['all', 'purchases', 'invoices'], { message: 'type must be all, purchases or invoices.' })
  type?: string;

  @ApiPropertyOptional()
  @Id('product_id', true)
  product_id?: number;

  @ApiPropertyOptional({ description: "Only this customer's purchases" })
  @Id('user_id', true)
  user_id?: number;
}

export class CancelPurchaseDto {
  @ApiProperty({ minLength: 10, description: 'Why (at least 10 characters)' })
  @IsOptional()
  @IsString({ message: 'You must include a cancel reason.' })
  @MaxLength(1000, { message: 'The cancel reason must be 1000 characters or less.' })
  cancel_reason?: string;

  @ApiPropertyOptional({ enum: ['cancelled'] })
  @IsOptional()
  @IsIn(['cancelled'], { message: 'status must be cancelled.' })
  status?: string;
}

export class AdminPurchaseInputDto {
  @ApiProperty() @Id('user_id') user_id: number;
  @ApiProperty() @Id('product_id') product_id: number;

  @ApiPropertyOptional({ description: 'Cents (default 0)' })
  @Cents('amount')
  amount?: number;

  @ApiPropertyOptional({ enum: PURCHASE_STATUSES, default: 'active' })
  @IsOptional()
  @IsIn(PURCHASE_STATUSES, { message: `status must be one of ${PURCHASE_STATUSES.join(', ')}.` })
  status?: string;

  @ApiPropertyOptional() @Id('payment_method_id', true) payment_method_id?: number;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @IsOptional()
  @IsInt({ message: 'expiration_days must be a whole number.' })
  @Min(1, { message: 'expiration_days must be 1 or more.' })
  @Max(100_000, { message: 'expiration_days must be 100000 or less.' })
  expiration_days?: number | null;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean({ message: 'is_gift must be true or false.' })
  is_gift?: boolean;
}

export class AdminPurchaseUpdateDto {
  @ApiProperty() @Id('purchase_id') purchase_id: number;

  @ApiPropertyOptional({ enum: PURCHASE_STATUSES, description: 'From cancelled or revoked only those two' })
  @IsOptional()
  @IsString({ message: `status must be one of ${PURCHASE_STATUSES.join(', ')}.` })
  status?: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString({ message: 'cancel_reason must be text.' })
  @MaxLength(1000, { message: 'The cancel reason must be 1000 characters or less.' })
  cancel_reason?: string | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @IsOptional()
  @IsInt({ message: 'expiration_days must be a whole number.' })
  @Min(1, { message: 'expiration_days must be 1 or more.' })
  @Max(100_000, { message: 'expiration_days must be 100000 or less.' })
  expiration_days?: number | null;

  @ApiPropertyOptional({ description: 'Cents' })
  @Cents('amount')
  amount?: number;
}

export class GiveAccessDto {
  @ApiProperty() @Id('user_id') user_id: number;
  @ApiProperty() @Id('product_id') product_id: number;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean({ message: 'gift must be true or false.' })
  gift?: boolean;

  @ApiPropertyOptional({ default: 0, description: 'Cents paid (0 for a gift)' })
  @Cents('total')
  total?: number;

  @ApiPropertyOptional({ type: Number, nullable: true, description: "Default: the product's" })
  @IsOptional()
  @IsInt({ message: 'expiration_days must be a whole number.' })
  @Min(1, { message: 'expiration_days must be 1 or more.' })
  @Max(100_000, { message: 'expiration_days must be 100000 or less.' })
  expiration_days?: number | null;

  @ApiPropertyOptional({ description: 'Default: gift (5) for a gift, else cash (3)' })
  @Id('payment_method_id', true)
  payment_method_id?: number;
}

export class RevokeAccessDto {
  @ApiProperty() @Id('purchase_id') purchase_id: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString({ message: 'reason must be text.' })
  @MaxLength(1000, { message: 'The reason must be 1000 characters or less.' })
  reason?: string;
}

export class InvoiceDto {
  @ApiProperty() invoice_id: number;
  @ApiProperty({ type: Number, nullable: true }) purchase_id: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Null once the customer was deleted' })
  user_id: number | null;
  @ApiProperty({ description: 'Cents' }) amount: number;
  @ApiProperty() currency: string;
  @ApiProperty({ type: Number, nullable: true }) payment_method_id: number | null;
  @ApiProperty({ enum: INVOICE_STATUSES }) status: string;
  @ApiProperty({ type: Date, nullable: true }) expiration_date: Date | null;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: Date, nullable: true }) paid_at: Date | null;
  @ApiProperty({ description: 'Cents given back of its payment (refunds, lost disputes)' })
  refunded_amount: number;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
  @ApiPropertyOptional({ type: PurchaseUserDto, nullable: true }) user?: PurchaseUserDto | null;
}

export class InvoiceResponse {
  @ApiProperty({ type: InvoiceDto }) invoice: InvoiceDto;
  @ApiProperty({ example: 'Cargo guardado.' }) message: string;
}

export class InvoicePageResponse extends PageInfo {
  @ApiProperty({ type: [InvoiceDto] }) invoices: InvoiceDto[];
}

export class OwnInvoicesQuery extends PageQuery {}

export class AdminInvoicesQuery extends PageQuery {
  @ApiPropertyOptional() @Id('user_id', true) user_id?: number;

  @ApiPropertyOptional({ enum: INVOICE_STATUSES })
  @IsOptional()
  @IsIn(INVOICE_STATUSES, { message: `status must be one of ${INVOICE_STATUSES.join(', ')}.` })
  status?: string;
}

export class InvoiceInputDto {
  @ApiProperty() @Id('user_id') user_id: number;
  @ApiPropertyOptional({ type: Number, nullable: true }) @Id('purchase_id', true) purchase_id?: number | null;
  @ApiPropertyOptional({ description: 'Cents' }) @Cents('amount') amount?: number;
  @ApiPropertyOptional({ type: Number, nullable: true }) @Id('payment_method_id', true) payment_method_id?:
    number | null;

  @ApiPropertyOptional({ enum: INVOICE_STATUSES, default: 'pending' })
  @IsOptional()
  @IsIn(INVOICE_STATUSES, { message: `status must be one of ${INVOICE_STATUSES.join(', ')}.` })
  status?: (typeof INVOICE_STATUSES)[number];

  @ApiPropertyOptional({ type: Date, nullable: true })
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'expiration_date must be a date.' })
  expiration_date?: Date | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString({ message: 'description must be text.' })
  @MaxLength(500, { message: 'description must be 500 characters or less.' })
  description?: string | null;
}

export class InvoiceUpdateDto {
  @ApiProperty() @Id('invoice_id') invoice_id: number;
  @ApiPropertyOptional() @Id('user_id', true) user_id?: number;
  @ApiPropertyOptional({ type: Number, nullable: true }) @Id('purchase_id', true) purchase_id?: number | null;
  @ApiPropertyOptional({ description: 'Cents' }) @Cents('amount') amount?: number;
  @ApiPropertyOptional({ type: Number, nullable: true }) @Id('payment_method_id', true) payment_method_id?:
    number | null;

  @ApiPropertyOptional({ enum: INVOICE_STATUSES })
  @IsOptional()
  @IsIn(INVOICE_STATUSES, { message: `status must be one of ${INVOICE_STATUSES.join(', ')}.` })
  status?: (typeof INVOICE_STATUSES)[number];

  @ApiPropertyOptional({ type: Date, nullable: true })
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'expiration_date must be a date.' })
  expiration_date?: Date | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString({ message: 'description must be text.' })
  @MaxLength(500, { message: 'description must be 500 characters or less.' })
  description?: string | null;
}
