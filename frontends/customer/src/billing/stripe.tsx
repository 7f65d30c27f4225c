/** Stripe.js, loaded once per publishable key, and the card form (Stripe Elements) the screens share. */
import { Alert, Box, Input, useMantineColorScheme } from '@mantine/core';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useCallback, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const loaded = new Map<string, Promise<Stripe | null>>();

/** Stripe.js for a publishable key (the script is fetched on first use only). */
export function stripeFor(key: string): Promise<Stripe | null> {
  let promise = loaded.get(key);
  if (!promise) {
    promise = loadStripe(key);
    loaded.set(key, promise);
  }
  return promise;
}

/** Provides Stripe Elements for `publishableKey`; without a key, says card payments are not set up. */
export function StripeProvider({
  publishableKey,
  children,
}: {
  publishableKey: string | null;
  children: ReactNode;
}) {
  const { t } = useTranslation('customer');
  const stripe = useMemo(() => (publishableKey ? stripeFor(publishableKey) : null), [publishableKey]);
  if (!stripe)
    return (
      <Alert color="yellow" role="status">
        {t('billing.checkout.notConfigured')}
      </Alert>
    );
  return <Elements stripe={stripe}>{children}</Elements>;
}

/** The card field: Stripe's own iframe, so the card number never reaches this page's code. */
export function CardField() {
  const { t } = useTranslation('customer');
  const { colorScheme } = useMantineColorScheme();
  return (
    <Input.Wrapper label={t('billing.checkout.cardLabel')} id="card-field">
      <Box p="sm" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}>
        <CardElement
          id="card-field"
          options={{
            hidePostalCode: true,
            style: { base: { color: colorScheme === 'dark' ? '#f1f3f5' : '#212529', fontSize: '16px' } },
          }}
        />
      </Box>
    </Input.Wrapper>
  );
}

/** What a screen does with the card typed: a PaymentMethod, 3-D Secure for a PaymentIntent, a SetupIntent. */
export function useCard() {
  const stripe = useStripe();
  const elements = useElements();
  const createPaymentMethod = useCallback(async (): Promise<string> => {
    const card = elements?.getElement(CardElement);
    if (!stripe || !card) throw new Error('Stripe is still loading.');
    const result = await stripe.createPaymentMethod({ type: 'card', card });
    if (result.error || !result.paymentMethod) throw new Error(result.error?.message ?? 'Card not accepted.');
    return result.paymentMethod.id;
  }, [stripe, elements]);
  /** Runs 3-D Secure (when the bank asks for it) for a PaymentIntent the server created. */
  const confirmPayment = useCallback(
    async (clientSecret: string): Promise<string> => {
      if (!stripe) throw new Error('Stripe is still loading.');
      const result = await stripe.confirmCardPayment(clientSecret);
      if (result.error || !result.paymentIntent)
        throw new Error(result.error?.message ?? 'Payment not confirmed.');
      return result.paymentIntent.id;
    },
    [stripe],
  );
  const confirmSetup = useCallback(
    async (clientSecret: string): Promise<void> => {
      const card = elements?.getElement(CardElement);
      if (!stripe || !card) throw new Error('Stripe is still loading.');
      const result = await stripe.confirmCardSetup(clientSecret, { payment_method: { card } });
      if (result.error) throw new Error(result.error.message ?? 'Card not saved.');
    },
    [stripe, elements],
  );
  return { ready: Boolean(stripe && elements), createPaymentMethod, confirmPayment, confirmSetup };
}
