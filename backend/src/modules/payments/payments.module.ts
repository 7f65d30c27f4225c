import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfigModule } from '../app-config/app-config.module';
import { MailModule } from '../mail/mail.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { ProductsModule } from '../products/products.module';
import { PurchasesModule } from '../purchases/purchases.module';
import { UsersModule } from '../users/users.module';
import { CheckoutController } from './checkout.controller';
import { CheckoutService } from './checkout.service';
import { PaymentCustomer } from './payment-customer.entity';
import { PaymentEvent } from './payment-event.entity';
import { PaymentEventsProcessor } from './payment-events.processor';
import { PaymentSource } from './payment-source.entity';
import { PaymentSourcesService } from './payment-sources.service';
import { PaymentWebhooksController } from './payment-webhooks.controller';
import { PaymentWebhooksService } from './payment-webhooks.service';
import { PaymentsController } from './payments.controller';
import { PaymentsRepository } from './payments.repository';
import { PayPalCheckoutService } from './paypal-checkout.service';
import { PayPalClient } from './paypal.client';
import { ProviderCancelAdapters } from './provider-cancel';
import { StripeAccounts } from './stripe-accounts';
import { StripeCatalogService } from './stripe-catalog.service';

/**
 * Payments (payment_events, payment_customers, payment_sources): Stripe and PayPal clients, checkout, saved
 * cards, the card provider lookups and the webhooks. Purchases, invoices, products and discounts belong to
 * billing's modules; this one calls their services.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([PaymentEvent, PaymentCustomer, PaymentSource]),
    AppConfigModule,
    OrganizationsModule,
    UsersModule,
    MailModule,
    ProductsModule,
    PurchasesModule,
  ],
  controllers: [PaymentsController, CheckoutController, PaymentWebhooksController],
  providers: [
    PaymentsRepository,
    StripeAccounts,
    PayPalClient,
    PaymentSourcesService,
    StripeCatalogService,
    CheckoutService,
    PayPalCheckoutService,
    PaymentEventsProcessor,
    PaymentWebhooksService,
    ProviderCancelAdapters,
  ],
  // The setup checklist tests the keys through the same clients; the dashboard counts failed webhooks.
  exports: [StripeAccounts, PayPalClient, PaymentWebhooksService],
})
export class PaymentsModule {}
