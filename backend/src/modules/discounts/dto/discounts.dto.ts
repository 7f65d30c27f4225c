import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDate, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { DISCOUNT_TYPES } from '@avatar-studio/contracts';
import { MAX_ID } from '../../../common/http/id-param';
import { PageInfo, PageQuery, ScopeQuery } from '../../../common/http/pagination';

const OptionalCount = (name: string) => (target: object, key: string) => {
  IsOptional()(target, key);
  IsInt({ message: `${name} must be a whole number.` })(target, key);
  Min(1, { message: `${name} must be 1 or more.` })(target, key);
  Max(MAX_ID, { message: `${name} must be ${MAX_ID} or less.` })(target, key);
};

export class DiscountCodeQuery extends ScopeQuery {
  @ApiProperty({ description: 'The product the code is for' })
  @Type(() => Number)
  @IsInt({ message: 'product_id must be a whole number.' })
  @Min(1, { message: 'product_id must be a whole number.' })
  @Max(MAX_ID, { message: 'product_id must be a whole number.' })
  product_id: number;
}

export class DiscountQuoteResponse {
  @ApiProperty() discount_id: number;
  @ApiProperty() code: string;
  @ApiProperty({ enum: DISCOUNT_TYPES }) type: string;
  @ApiProperty({ description: 'Percent, or cents' }) amount: number;
  @ApiProperty({ description: 'Cents before the discount' }) price: number;
  @ApiProperty({ description: 'Cents taken off' }) amount_off: number;
  @ApiProperty({ description: 'Cents to pay' }) discounted_price: number;
}

export class DiscountInputDto {
  @ApiProperty({ maxLength: 64, description: 'Letters, digits, - and _; unique whatever its case' })
  @IsString({ message: 'Code must be text.' })
  @MaxLength(64, { message: 'Code must be 64 characters or less.' })
  code: string;

  @ApiProperty({ enum: DISCOUNT_TYPES })
  @IsIn(DISCOUNT_TYPES, { message: 'Type must be percent or fixed.' })
  type: 'percent' | 'fixed';

  @ApiProperty({ description: 'Percent (1-100) or cents' })
  @IsInt({ message: 'Amount must be a whole number above 0.' })
  @Min(1, { message: 'Amount must be a whole number above 0.' })
  @Max(100_000_000, { message: 'Amount must be 100000000 or less.' })
  amount: number;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'null = every product' })
  @OptionalCount('product_id')
  product_id?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'Every product of this organization (with no product_id)',
  })
  @OptionalCount('organization_id')
  organization_id?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @OptionalCount('usage_limit')
  usage_limit?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @OptionalCount('usage_limit_per_user')
  usage_limit_per_user?: number | null;

  @ApiPropertyOptional({ type: Date, nullable: true })
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'starts_at must be a date.' })
  starts_at?: Date | null;

  @ApiPropertyOptional({ type: Date, nullable: true })
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'expires_at must be a date.' })
  expires_at?: Date | null;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean({ message: 'active must be true or false.' })
  active?: boolean;
}

export class UpdateDiscountDto {
  @ApiProperty()
  @IsInt({ message: 'discount_id must be a whole number.' })
  @Min(1, { message: 'discount_id must be a whole number.' })
  @Max(MAX_ID, { message: 'discount_id must be a whole number.' })
  discount_id: number;

  @ApiPropertyOptional({ maxLength: 64 })
  @IsOptional()
  @IsString({ message: 'Code must be text.' })
  @MaxLength(64, { message: 'Code must be 64 characters or less.' })
  code?: string;

  @ApiPropertyOptional({ enum: DISCOUNT_TYPES })
  @IsOptional()
  @IsIn(DISCOUNT_TYPES, { message: 'Type must be percent or fixed.' })
  type?: 'percent' | 'fixed';

  @ApiPropertyOptional()
  @IsOptional()
  @IsInt({ message: 'Amount must be a whole number above 0.' })
  @Min(1, { message: 'Amount must be a whole number above 0.' })
  @Max(100_000_000, { message: 'Amount must be 100000000 or less.' })
  amount?: number;

  @ApiPropertyOptional({ type: Number, nullable: true }) @OptionalCount('product_id') product_id?:
    number | null;
  @ApiPropertyOptional({ type: Number, nullable: true }) @OptionalCount('organization_id') organization_id?:
    number | null;
  @ApiPropertyOptional({ type: Number, nullable: true }) @OptionalCount('usage_limit') usage_limit?:
    number | null;
  @ApiPropertyOptional({ type: Number, nullable: true })
  @OptionalCount('usage_limit_per_user')
  usage_limit_per_user?: number | null;

  @ApiPropertyOptional({ type: Date, nullable: true })
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'starts_at must be a date.' })
  starts_at?: Date | null;

  @ApiPropertyOptional({ type: Date, nullable: true })
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'expires_at must be a date.' })
  expires_at?: Date | null;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean({ message: 'active must be true or false.' })
  active?: boolean;
}

export class DiscountDto {
  @ApiProperty() discount_id: number;
  @ApiProperty() code: string;
  @ApiProperty({ enum: DISCOUNT_TYPES }) type: string;
  @ApiProperty() amount: number;
  @ApiProperty({ type: Number, nullable: true }) product_id: number | null;
  @ApiProperty({ type: Number, nullable: true }) organization_id: number | null;
  @ApiProperty({ type: Number, nullable: true }) usage_limit: number | null;
  @ApiProperty({ type: Number, nullable: true }) usage_limit_per_user: number | null;
  @ApiProperty() times_used: number;
  @ApiProperty({ type: Date, nullable: true }) starts_at: Date | null;
  @ApiProperty({ type: Date, nullable: true }) expires_at: Date | null;
  @ApiProperty() active: boolean;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class DiscountResponse {
  @ApiProperty({ type: DiscountDto }) discount: DiscountDto;
}

export class DiscountPageResponse extends PageInfo {
  @ApiProperty({ type: [DiscountDto] }) discounts: DiscountDto[];
}

export class DiscountsQuery extends PageQuery {
  @ApiPropertyOptional({ description: "Only this organization's codes" })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'for_organization_id must be a whole number.' })
  @Min(1, { message: 'for_organization_id must be a whole number.' })
  @Max(MAX_ID, { message: 'for_organization_id must be a whole number.' })
  for_organization_id?: number;
}
