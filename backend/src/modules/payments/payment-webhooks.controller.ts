import { Controller, Headers, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { RawBodyRequest } from '@nestjs/common';
import type { Request } from 'express';
import { Authenticated } from '../../common/auth/authenticated.decorator';
import { OrganizationParams, WebhookAck } from './dto/payments.dto';
import { PaymentWebhooksService } from './payment-webhooks.service';

@ApiTags('Webhooks')
@Controller()
export class PaymentWebhooksController {
  constructor(private readonly webhooks: PaymentWebhooksService) {}

  @Post('stripe/webhook')
  @Authenticated({ public: true })
  @HttpCode(200)
  @ApiOperation({ summary: "Stripe's events for the platform account (signed with stripe_webhook_key)" })
  @ApiOkResponse({ type: WebhookAck })
  async stripe(
    @Req() req: RawBodyRequest<Request>,
    @Headers('stripe-signature') signature: string | undefined,
  ): Promise<WebhookAck> {
    await this.webhooks.receiveStripe(null, req.rawBody, signature);
    return { received: true };
  }

  @Post('stripe/webhook/organization/:organization_id')
  @Authenticated({ public: true })
  @HttpCode(200)
  @ApiOperation({ summary: "Stripe's events for an organization's own account (its webhook secret)" })
  @ApiOkResponse({ type: WebhookAck })
  async stripeOrganization(
    @Param() params: OrganizationParams,
    @Req() req: RawBodyRequest<Request>,
    @Headers('stripe-signature') signature: string | undefined,
  ): Promise<WebhookAck> {
    await this.webhooks.receiveStripe(params.organization_id, req.rawBody, signature);
    return { received: true };
  }

  @Post('paypal/webhook')
  @Authenticated({ public: true })
  @HttpCode(200)
  @ApiOperation({ summary: "PayPal's events (verified with PayPal for paypal_webhook_id)" })
  @ApiOkResponse({ type: WebhookAck })
  async paypal(@Req() req: RawBodyRequest<Request>): Promise<WebhookAck> {
    await this.webhooks.receivePayPal(req.rawBody, req.headers);
    return { received: true };
  }
}
