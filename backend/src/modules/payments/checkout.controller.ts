import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import { IdParam } from '../../common/http/id-param';
import type { Principal } from '../../common/auth/principal';
import { CheckoutService } from './checkout.service';
import {
  CheckoutAttemptBody,
  CheckoutCaptureBody,
  CheckoutKeysResponse,
  CheckoutResponse,
  InvoiceCheckoutKeysResponse,
  ProductIdParams,
  PayPalCaptureBody,
  PayPalOrderBody,
  PayPalOrderResponse,
  PayPalPlanResponse,
  PurchaseIdResponse,
} from './dto/payments.dto';
import { PayPalCheckoutService } from './paypal-checkout.service';

@ApiTags('Checkout')
@Controller()
export class CheckoutController {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly paypal: PayPalCheckoutService,
  ) {}

  @Get('checkout/keys/:product_id')
  @Authenticated()
  @ApiOperation({ summary: "The public keys of a product's checkout (Stripe.js, PayPal's script)" })
  @ApiOkResponse({ type: CheckoutKeysResponse })
  keys(@CurrentUser() me: Principal, @Param() params: ProductIdParams): Promise<CheckoutKeysResponse> {
    return this.checkout.keys(me, params.product_id);
  }

  @Get('checkout/invoice_keys/:invoice_id')
  @Authenticated()
  @ApiOperation({
    summary:
      "The Stripe publishable key and account an open invoice of the caller is paid with (an organization's renewal: the organization's)",
  })
  @ApiOkResponse({ type: InvoiceCheckoutKeysResponse })
  invoiceKeys(
    @CurrentUser() me: Principal,
    @IdParam('invoice_id') invoice_id: number,
  ): Promise<InvoiceCheckoutKeysResponse> {
    return this.checkout.invoiceKeys(me, invoice_id);
  }

  @Post('checkout/attempt')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Pay a product or an open invoice with a card (the amount is computed on the server)',
    description:
      '409 limit_per_user reached, 412 user_limit reached, 400 no valid payment method, 402 declined. ' +
      'When requires_action is true, Stripe.js confirms with client_secret (3-D Secure) and then capture.',
  })
  @ApiOkResponse({ type: CheckoutResponse })
  attempt(@CurrentUser() me: Principal, @Body() body: CheckoutAttemptBody): Promise<CheckoutResponse> {
    return this.checkout.attempt(me, body);
  }

  @Post('checkout/capture')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({ summary: 'Complete a checkout after Stripe.js confirmed it (3-D Secure)' })
  @ApiOkResponse({ type: CheckoutResponse })
  capture(@CurrentUser() me: Principal, @Body() body: CheckoutCaptureBody): Promise<CheckoutResponse> {
    return this.checkout.capture(me, body);
  }

  @Post('paypal/order')
  @Authenticated()
  @ApiOperation({ summary: "Create a PayPal order for a one-off product (PayPal's buttons approve it)" })
  @ApiOkResponse({ type: PayPalOrderResponse })
  createOrder(@CurrentUser() me: Principal, @Body() body: PayPalOrderBody): Promise<PayPalOrderResponse> {
    return this.paypal.createOrder(me, body);
  }

  @Post('paypal/order/capture')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({ summary: 'Capture an approved PayPal order' })
  @ApiOkResponse({ type: PurchaseIdResponse })
  captureOrder(@CurrentUser() me: Principal, @Body() body: PayPalCaptureBody): Promise<PurchaseIdResponse> {
    return this.paypal.captureOrder(me, body);
  }

  @Post('paypal/subscription')
  @Authenticated()
  @ApiOperation({ summary: "A PayPal plan for a subscription product (PayPal's buttons subscribe to it)" })
  @ApiOkResponse({ type: PayPalPlanResponse })
  createSubscription(
    @CurrentUser() me: Principal,
    @Body() body: PayPalOrderBody,
  ): Promise<PayPalPlanResponse> {
    return this.paypal.createSubscription(me, body);
  }

  @Post('paypal/subscription/capture')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({ summary: 'Record an approved PayPal subscription' })
  @ApiOkResponse({ type: PurchaseIdResponse })
  captureSubscription(
    @CurrentUser() me: Principal,
    @Body() body: PayPalCaptureBody,
  ): Promise<PurchaseIdResponse> {
    return this.paypal.captureSubscription(me, body);
  }
}
