import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { PAYMENT_MESSAGES, PAYMENT_METHODS } from '@avatar-studio/contracts';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import {
  IdParams,
  PaymentMethodsResponse,
  PaymentSourceResponse,
  PaymentSourcesResponse,
  SaveCardBody,
  SetupIntentResponse,
  StripePricesResponse,
  StripeProductParams,
  StripeProductsResponse,
} from './dto/payments.dto';
import { PaymentSourcesService } from './payment-sources.service';
import { StripeCatalogService } from './stripe-catalog.service';

@ApiTags('Payments')
@Controller()
export class PaymentsController {
  constructor(
    private readonly sources: PaymentSourcesService,
    private readonly catalog: StripeCatalogService,
  ) {}

  @Get('payment_sources')
  @Authenticated()
  @ApiOperation({ summary: "The caller's saved cards" })
  @ApiOkResponse({ type: PaymentSourcesResponse })
  async listSources(@CurrentUser() me: Principal): Promise<PaymentSourcesResponse> {
    return { payment_sources: await this.sources.list(me) };
  }

  @Post('payment_sources/setup')
  @Authenticated()
  @ApiOperation({ summary: 'Start saving a card: a SetupIntent for Stripe.js to confirm' })
  @ApiCreatedResponse({ type: SetupIntentResponse })
  setup(@CurrentUser() me: Principal): Promise<SetupIntentResponse> {
    return this.sources.setup(me);
  }

  @Post('payment_sources')
  @Authenticated()
  @ApiOperation({ summary: 'Save the card of a SetupIntent that Stripe.js confirmed' })
  @ApiCreatedResponse({ type: PaymentSourceResponse })
  async save(@CurrentUser() me: Principal, @Body() body: SaveCardBody): Promise<PaymentSourceResponse> {
    return {
      payment_source: await this.sources.save(me, body.setup_intent_id),
      message: PAYMENT_MESSAGES.paymentSourceSaved,
    };
  }

  @Delete('payment_sources/:id')
  @Authenticated()
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a saved card' })
  @ApiNoContentResponse()
  async remove(@CurrentUser() me: Principal, @Param() params: IdParams): Promise<void> {
    await this.sources.remove(me, params.id);
  }

  @Get('payment_method')
  @Authenticated()
  @ApiOperation({ summary: 'How a purchase can be paid: card, paypal, cash, transfer, gift' })
  @ApiOkResponse({ type: PaymentMethodsResponse })
  paymentMethods(): PaymentMethodsResponse {
    return { payment_methods: PAYMENT_METHODS.map((m) => ({ ...m })) };
  }

  @Get('stripe/products')
  @Authenticated()
  @ApiOperation({
    summary:
      'Stripe products for the product form (staff: the platform account; organization admins: theirs)',
  })
  @ApiOkResponse({ type: StripeProductsResponse })
  async stripeProducts(@CurrentUser() me: Principal): Promise<StripeProductsResponse> {
    return { products: await this.catalog.products(me) };
  }

  @Get('stripe/prices/:stripe_product_id')
  @Authenticated()
  @ApiOperation({ summary: "A Stripe product's prices (unit_amount in cents)" })
  @ApiOkResponse({ type: StripePricesResponse })
  async stripePrices(
    @CurrentUser() me: Principal,
    @Param() params: StripeProductParams,
  ): Promise<StripePricesResponse> {
    return { prices: await this.catalog.prices(me, params.stripe_product_id) };
  }
}
