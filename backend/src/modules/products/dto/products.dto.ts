import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsDate,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
} from 'class-validator';
import { SUBSCRIPTION_PERIODS } from '@avatar-studio/contracts';
import { MAX_ID } from '../../../common/http/id-param';
import { PageInfo, PageQuery, ScopeQuery } from '../../../common/http/pagination';
import { PRODUCT_SORTS } from '../products.repository';

const MAX_CENTS = 100_000_000;
const MAX_COUNT = 1_000_000_000;

/**
 * Checked by the save rules, which list every failure together ('Validation Errors:'); here only a cap on its
 * size, so any other value passes through to them.
 */
const RuleChecked = (cap: { text?: number; number?: number }, message: string) =>
  ValidateBy({
    name: 'ruleChecked',
    validator: {
      validate: (v: unknown) =>
        !(typeof v === 'string' && cap.text !== undefined && v.length > cap.text) &&
        !(typeof v === 'number' && cap.number !== undefined && v > cap.number),
      defaultMessage: () => message,
    },
  });

const OptionalCount =
  (name: string, max = MAX_COUNT) =>
  (target: object, key: string) => {
    IsOptional()(target, key);
    IsInt({ message: `${name} must be a whole number.` })(target, key);
    Min(1, { message: `${name} must be 1 or more.` })(target, key);
    Max(max, { message: `${name} must be ${max} or less.` })(target, key);
  };

const OptionalText = (name: string, max: number) => (target: object, key: string) => {
  IsOptional()(target, key);
  IsString({ message: `${name} must be text.` })(target, key);
  MaxLength(max, { message: `${name} must be ${max} characters or less.` })(target, key);
};

/** The product form (POST /products; PUT /products adds product_id). Prices are whole cents. */
export class ProductInputDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @RuleChecked({ text: 200 }, 'Name must be 200 characters or less.')
  name?: string;

  @ApiPropertyOptional({ maxLength: 10000 })
  @RuleChecked({ text: 10000 }, 'Description must be 10000 characters or less.')
  description?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500 })
  @OptionalText('short_description', 500)
  short_description?: string | null;

  @ApiPropertyOptional({ description: 'Cents, greater than 0', maximum: MAX_CENTS })
  @RuleChecked({ number: MAX_CENTS }, `Price must be ${MAX_CENTS} cents or less.`)
  price?: number;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'Cents; paid instead of price when set' })
  @OptionalCount('sale_price', MAX_CENTS)
  sale_price?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'null = unlimited words' })
  @RuleChecked({ number: MAX_COUNT }, `Word amount must be ${MAX_COUNT} or less.`)
  word_amount?: number | null;

  @ApiPropertyOptional({ description: 'The Unlimited switch: on clears word_amount' })
  @IsOptional()
  @IsBoolean({ message: 'unlimited must be true or false.' })
  unlimited?: boolean;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @OptionalCount('free_trial_words')
  free_trial_words?: number | null;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean({ message: 'is_subscription must be true or false.' })
  is_subscription?: boolean;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'Default 1 for a subscription' })
  @OptionalCount('subscription_interval', 1000)
  subscription_interval?: number | null;

  @ApiPropertyOptional({
    enum: SUBSCRIPTION_PERIODS,
    nullable: true,
    description: 'Default month for a subscription',
  })
  @IsOptional()
  @IsIn(SUBSCRIPTION_PERIODS, {
    message: `Subscription period must be one of ${SUBSCRIPTION_PERIODS.join(', ')}.`,
  })
  subscription_period?: string | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @OptionalCount('expiration_days', 100_000)
  expiration_days?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @OptionalCount('limit_per_user')
  limit_per_user?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @OptionalCount('user_limit')
  user_limit?: number | null;

  @ApiPropertyOptional({
    description: 'Offers a free trial (of free_trial_length days or until free_trial_end)',
  })
  @IsOptional()
  @IsBoolean({ message: 'free_trial_period must be true or false.' })
  free_trial_period?: boolean;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'Days' })
  @OptionalCount('free_trial_length', 3650)
  free_trial_length?: number | null;

  @ApiPropertyOptional({ type: Date, nullable: true })
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'free_trial_end must be a date.' })
  free_trial_end?: Date | null;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean({ message: 'available must be true or false.' })
  available?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true })
  @OptionalText('stripe_product_id', 255)
  stripe_product_id?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @OptionalText('stripe_price_id', 255)
  stripe_price_id?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @OptionalText('paypal_product_id', 255)
  paypal_product_id?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @OptionalText('paypal_plan_id', 255)
  paypal_plan_id?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'http(s) URL called by a test purchase' })
  @OptionalText('webhook_url', 2048)
  webhook_url?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @OptionalText('product_sku', 100)
  product_sku?: string | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: "The organization selling it (staff only; an organization's Admin sells in their scope)",
  })
  @IsOptional()
  @IsInt({ message: 'organization_id must be a whole number.' })
  @Min(1, { message: 'organization_id must be a whole number.' })
  @Max(MAX_ID, { message: 'organization_id must be a whole number.' })
  organization_id?: number | null;
}

export class UpdateProductDto extends ProductInputDto {
  @ApiProperty()
  @Type(() => Number)
  @IsInt({ message: 'product_id must be a whole number.' })
  @Min(1, { message: 'product_id must be a whole number.' })
  @Max(MAX_ID, { message: 'product_id must be a whole number.' })
  product_id: number;
}

export class ProductDto {
  @ApiProperty() product_id: number;
  @ApiProperty({ type: Number, nullable: true }) organization_id: number | null;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: String, nullable: true }) short_description: string | null;
  @ApiProperty({ description: 'Cents' }) price: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Cents' }) sale_price: number | null;
  @ApiProperty() currency: string;
  @ApiProperty({ type: Number, nullable: true, description: 'null = unlimited' }) word_amount: number | null;
  @ApiProperty({ type: Number, nullable: true }) free_trial_words: number | null;
  @ApiProperty() is_subscription: boolean;
  @ApiProperty({ type: Number, nullable: true }) subscription_interval: number | null;
  @ApiProperty({ type: String, nullable: true, enum: SUBSCRIPTION_PERIODS }) subscription_period:
    string | null;
  @ApiProperty({ type: Number, nullable: true }) expiration_days: number | null;
  @ApiProperty({ type: Number, nullable: true }) limit_per_user: number | null;
  @ApiProperty({ type: Number, nullable: true }) user_limit: number | null;
  @ApiProperty() free_trial_period: boolean;
  @ApiProperty({ type: Number, nullable: true }) free_trial_length: number | null;
  @ApiProperty({ type: Date, nullable: true }) free_trial_end: Date | null;
  @ApiProperty() available: boolean;
  @ApiProperty({ type: String, nullable: true }) stripe_product_id: string | null;
  @ApiProperty({ type: String, nullable: true }) stripe_price_id: string | null;
  @ApiProperty({ type: String, nullable: true }) paypal_product_id: string | null;
  @ApiProperty({ type: String, nullable: true }) paypal_plan_id: string | null;
  @ApiProperty({ type: String, nullable: true }) webhook_url: string | null;
  @ApiProperty({ type: String, nullable: true }) product_sku: string | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class ProductResponse {
  @ApiProperty({ type: ProductDto }) product: ProductDto;
  @ApiPropertyOptional({
    description: "Staff admins: the key that signs this product's webhook calls (HMAC-SHA256, see README)",
  })
  webhook_secret?: string;
}

export class ProductListResponse {
  @ApiProperty({ type: [ProductDto] }) products: ProductDto[];
}

export class ProductPageResponse extends PageInfo {
  @ApiProperty({ type: [ProductDto] }) products: ProductDto[];
}

export class ProductsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: PRODUCT_SORTS, default: 'product_id' })
  @IsOptional()
  @IsIn(PRODUCT_SORTS, { message: `sort must be one of ${PRODUCT_SORTS.join(', ')}.` })
  sort?: (typeof PRODUCT_SORTS)[number];

  @ApiPropertyOptional({ enum: ['asc', 'desc', 'ASC', 'DESC'], default: 'asc' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @IsIn(['asc', 'desc'], { message: 'direction must be asc or desc.' })
  direction?: 'asc' | 'desc';
}

export class AvailableProductsQuery extends ScopeQuery {}

export class TestPurchaseDto {
  @ApiProperty()
  @Type(() => Number)
  @IsInt({ message: 'product_id must be a whole number.' })
  @Min(1, { message: 'product_id must be a whole number.' })
  @Max(MAX_ID, { message: 'product_id must be a whole number.' })
  product_id: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsEmail({}, { message: 'Email is invalid.' })
  @MaxLength(254, { message: 'Email is invalid.' })
  email?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'user_id must be a whole number.' })
  @Min(1, { message: 'user_id must be a whole number.' })
  @Max(MAX_ID, { message: 'user_id must be a whole number.' })
  user_id?: number;
}

export class TestPurchaseResponse {
  @ApiProperty({ description: 'The webhook call was queued (retried with back-off)' })
  queued: boolean;

  @ApiProperty({ description: 'The id of the event sent, also in the body' })
  event_id: string;
}
