import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsPositive,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { CHECKOUT_TYPES, type CheckoutType } from '@avatar-studio/contracts';

export class PaymentSourceDto {
  @ApiProperty() payment_source_id: number;
  @ApiProperty({ example: 'visa' }) brand: string;
  @ApiProperty({ example: '4242' }) last4: string;
  @ApiProperty() exp_month: number;
  @ApiProperty() exp_year: number;
  @ApiProperty({ type: Number, nullable: true, description: 'The Stripe account: null = the platform' })
  organization_id: number | null;
  @ApiProperty() createdAt: Date;
}

export class PaymentSourcesResponse {
  @ApiProperty({ type: [PaymentSourceDto] }) payment_sources: PaymentSourceDto[];
}

export class PaymentSourceResponse {
  @ApiProperty({ type: PaymentSourceDto }) payment_source: PaymentSourceDto;
  @ApiProperty({ example: 'Método de pago guardado.' }) message: string;
}

export class SetupIntentResponse {
  @ApiProperty({ description: "The SetupIntent's client secret, for Stripe.js's confirmCardSetup" })
  client_secret: string;
  @ApiProperty() setup_intent_id: string;
  @ApiProperty({ type: String, nullable: true, description: 'The publishable key Stripe.js loads with' })
  publishable_key: string | null;
}

export class SaveCardBody {
  @ApiProperty({ description: 'A SetupIntent confirmed by Stripe.js (from POST /payment_sources/setup)' })
  @IsString({ message: 'setup_intent_id must be text.' })
  @Matches(/^seti_[A-Za-z0-9_]{1,200}$/, { message: 'setup_intent_id is not a SetupIntent id.' })
  setup_intent_id: string;
}

export class PaymentMethodDto {
  @ApiProperty() payment_method_id: number;
  @ApiProperty({ example: 'card' }) name: string;
}
export class PaymentMethodsResponse {
  @ApiProperty({ type: [PaymentMethodDto] }) payment_methods: PaymentMethodDto[];
}

export class StripeProductDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty() active: boolean;
}
export class StripeProductsResponse {
  @ApiProperty({ type: [StripeProductDto] }) products: StripeProductDto[];
}
export class StripeRecurringDto {
  @ApiProperty({ example: 'month' }) interval: string;
  @ApiProperty() interval_count: number;
}
export class StripePriceDto {
  @ApiProperty() id: string;
  @ApiProperty({ type: Number, nullable: true, description: 'Cents' }) unit_amount: number | null;
  @ApiProperty({ example: 'usd' }) currency: string;
  @ApiProperty({ type: StripeRecurringDto, nullable: true }) recurring: StripeRecurringDto | null;
}
export class StripePricesResponse {
  @ApiProperty({ type: [StripePriceDto] }) prices: StripePriceDto[];
}
export class StripeProductParams {
  @ApiProperty()
  @IsString()
  @Matches(/^prod_[A-Za-z0-9_]{1,200}$/, { message: 'stripe_product_id is not a Stripe product id.' })
  stripe_product_id: string;
}

/** The spec's checkout payload. */
export class CheckoutAttemptBody {
  @ApiPropertyOptional({ enum: CHECKOUT_TYPES, default: 'product' })
  @IsOptional()
  @IsIn(CHECKOUT_TYPES, { message: 'type must be product or invoice.' })
  type?: CheckoutType;

  @ApiPropertyOptional()
  @ValidateIf((b: CheckoutAttemptBody) => (b.type ?? 'product') === 'product')
  @Type(() => Number)
  @IsInt({ message: 'product_id must be a whole number.' })
  @IsPositive({ message: 'product_id must be a whole number.' })
  product_id?: number;

  @ApiPropertyOptional()
  @ValidateIf((b: CheckoutAttemptBody) => b.type === 'invoice' || b.invoice_id !== undefined)
  @Type(() => Number)
  @IsInt({ message: 'invoice_id must be a whole number.' })
  @IsPositive({ message: 'invoice_id must be a whole number.' })
  invoice_id?: number;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString({ message: 'discountCode must be text.' })
  @MaxLength(64, { message: 'discountCode must be 64 characters or fewer.' })
  discountCode?: string | null;

  @ApiPropertyOptional({ description: 'A Stripe PaymentMethod id from Stripe.js (a new card)' })
  @IsOptional()
  @IsString({ message: 'payment_method_id must be text.' })
  @MaxLength(255)
  payment_method_id?: string;

  @ApiPropertyOptional({ description: "'card' (a new card) or a saved payment source's id" })
  @IsOptional()
  @Matches(/^(card|\d{1,10})$/, { message: 'payment_source_id must be card or a saved card id.' })
  payment_source_id?: string;

  @ApiPropertyOptional({
    description:
      "With product_id: an open invoice staff issued to the buyer, paid by this purchase (charged the invoice's amount, no discount code)",
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'contract_invoice_id must be a whole number.' })
  @IsPositive({ message: 'contract_invoice_id must be a whole number.' })
  contract_invoice_id?: number;
}

export class CheckoutCaptureBody {
  @ApiPropertyOptional({ description: 'The purchase to complete (or invoice_id for an invoice)' })
  @Type(() => Number)
  @IsInt({ message: 'purchase_id must be a whole number.' })
  @IsPositive({ message: 'purchase_id must be a whole number.' })
  @ValidateIf((b: CheckoutCaptureBody) => b.invoice_id === undefined)
  purchase_id?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'invoice_id must be a whole number.' })
  @IsPositive({ message: 'invoice_id must be a whole number.' })
  invoice_id?: number;

  @ApiPropertyOptional({ description: 'Paying an invoice: the PaymentIntent Stripe.js confirmed' })
  @IsOptional()
  @IsString()
  @Matches(/^pi_[A-Za-z0-9_]{1,200}$/, { message: 'payment_intent_id is not a PaymentIntent id.' })
  payment_intent_id?: string;
}

export class CheckoutResponse {
  @ApiProperty({ type: Number, nullable: true }) purchase_id: number | null;
  @ApiProperty({ type: Number, nullable: true }) invoice_id: number | null;
  @ApiProperty({ description: 'The purchase or invoice status after this step' }) status: string;
  @ApiProperty({ description: 'Cents charged (after the discount)' }) amount: number;
  @ApiProperty({ description: 'Stripe.js must confirm (3-D Secure) with client_secret, then capture' })
  requires_action: boolean;
  @ApiProperty({ type: String, nullable: true }) client_secret: string | null;
  @ApiProperty({ type: String, nullable: true }) publishable_key: string | null;
}

export class PayPalOrderBody {
  @ApiProperty()
  @Type(() => Number)
  @IsInt({ message: 'product_id must be a whole number.' })
  @IsPositive({ message: 'product_id must be a whole number.' })
  product_id: number;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString({ message: 'discountCode must be text.' })
  @MaxLength(64)
  discountCode?: string | null;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(255) payment_method_id?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(32) payment_source_id?: string;
}

export class PayPalCaptureBody extends PayPalOrderBody {
  @ApiPropertyOptional({ description: "PayPal's order id (onApprove data.orderID)" })
  @ValidateIf((b: PayPalCaptureBody) => b.subscriptionID === undefined)
  @IsString({ message: 'orderID must be text.' })
  @Matches(/^[A-Z0-9-]{1,64}$/, { message: 'orderID is not a PayPal order id.' })
  orderID?: string;

  @ApiPropertyOptional({ description: "PayPal's subscription id (onApprove data.subscriptionID)" })
  @IsOptional()
  @IsString({ message: 'subscriptionID must be text.' })
  @Matches(/^[A-Z0-9-]{1,64}$/, { message: 'subscriptionID is not a PayPal subscription id.' })
  subscriptionID?: string;

  @ApiPropertyOptional({ description: 'Our purchase id (returned by subscription create)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  purchase_id?: number;
}

export class PayPalOrderResponse {
  @ApiProperty() orderID: string;
}
export class PayPalPlanResponse {
  @ApiProperty() plan_id: string;
  @ApiProperty({ description: 'Pass as custom_id to actions.subscription.create' }) purchase_id: number;
}
export class PurchaseIdResponse {
  @ApiProperty() purchase_id: number;
}
export class WebhookAck {
  @ApiProperty() received: boolean;
}
export class OrganizationParams {
  @ApiProperty()
  @Type(() => Number)
  @IsInt({ message: 'organization_id must be a whole number.' })
  @IsPositive({ message: 'organization_id must be a whole number.' })
  organization_id: number;
}
export class IdParams {
  @ApiProperty()
  @Type(() => Number)
  @IsInt({ message: 'The id must be a whole number.' })
  @IsPositive({ message: 'The id must be a whole number.' })
  id: number;
}

export class CheckoutKeysResponse {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The Stripe publishable key the product is sold with',
  })
  stripe_publishable_key: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "PayPal's client id (null: PayPal does not sell it)",
  })
  paypal_client_id: string | null;
}
export class InvoiceCheckoutKeysResponse {
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The Stripe publishable key the invoice is paid with (an organization's renewal: its own)",
  })
  stripe_publishable_key: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'The organization whose Stripe account is charged (its saved cards apply); null: the platform',
  })
  organization_id: number | null;
}

export class ProductIdParams {
  @ApiProperty()
  @Type(() => Number)
  @IsInt({ message: 'product_id must be a whole number.' })
  @IsPositive({ message: 'product_id must be a whole number.' })
  product_id: number;
}
