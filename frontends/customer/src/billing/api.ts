/**
 * Server state of the pricing, checkout, order summary and billing screens: query keys (each under the
 * organization scope), one hook per query and one per mutation.
 */
import { ApiError, api, unwrap, useScopeKey, type ApiSchemas, type ScopeKey } from '@avatar-studio/shared';
import { ORDER_SUMMARY_POLL_MS } from '@avatar-studio/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type Product = ApiSchemas['ProductDto'];
export type Purchase = ApiSchemas['PurchaseDto'];
export type Invoice = ApiSchemas['InvoiceDto'];
export type PaymentSource = ApiSchemas['PaymentSourceDto'];
export type DiscountQuote = ApiSchemas['DiscountQuoteResponse'];
export type CheckoutAnswer = ApiSchemas['CheckoutResponse'];
export type CheckoutAttempt = ApiSchemas['CheckoutAttemptBody'];
export type CardSetup = ApiSchemas['SetupIntentResponse'];

const BILLING_KEY = 'billing';
export const billingKeys = {
  all: (scope: ScopeKey) => [BILLING_KEY, scope] as const,
  products: (scope: ScopeKey) => [BILLING_KEY, scope, 'products'] as const,
  product: (scope: ScopeKey, id: number) => [BILLING_KEY, scope, 'product', id] as const,
  keys: (scope: ScopeKey, id: number) => [BILLING_KEY, scope, 'keys', id] as const,
  purchases: (scope: ScopeKey) => [BILLING_KEY, scope, 'purchases'] as const,
  purchase: (scope: ScopeKey, id: number) => [BILLING_KEY, scope, 'purchase', id] as const,
  invoices: (scope: ScopeKey) => [BILLING_KEY, scope, 'invoices'] as const,
  sources: (scope: ScopeKey) => [BILLING_KEY, scope, 'sources'] as const,
  invoiceKeys: (scope: ScopeKey, id: number) => [BILLING_KEY, scope, 'invoiceKeys', id] as const,
};

/** 4xx answers (missing, not yours) are final: no retries before showing "not found". */
const retryServerErrors = (count: number, error: unknown) =>
  !(error instanceof ApiError && error.status < 500) && count < 3;

/** Statuses after which the order summary stops polling. */
const FINAL = new Set(['active', 'completed', 'cancelled', 'revoked', 'failed']);

/** GET /api/products/available: what the caller may buy in the current scope. */
export function useAvailableProducts() {
  const scope = useScopeKey();
  return useQuery({
    queryKey: billingKeys.products(scope),
    queryFn: async () => (await unwrap(api.GET('/api/products/available'))).products,
  });
}

/** GET /api/products/{id}. */
export function useProduct(id: number) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: billingKeys.product(scope, id),
    queryFn: async () =>
      (await unwrap(api.GET('/api/products/{product_id}', { params: { path: { product_id: id } } }))).product,
    enabled: Number.isInteger(id) && id > 0,
    retry: retryServerErrors,
  });
}

/** GET /api/checkout/keys/{id}: the Stripe publishable key and PayPal client id of a product's checkout. */
export function useCheckoutKeys(id: number) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: billingKeys.keys(scope, id),
    queryFn: () =>
      unwrap(api.GET('/api/checkout/keys/{product_id}', { params: { path: { product_id: id } } })),
    enabled: Number.isInteger(id) && id > 0,
    retry: retryServerErrors,
  });
}

/**
 * GET /api/checkout/invoice_keys/{id}: the Stripe publishable key an open invoice is paid with, and the
 * organization whose account it is (an organization's renewal is paid at its own account, with its cards).
 */
export function useInvoiceCheckoutKeys(id: number | null) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: billingKeys.invoiceKeys(scope, id ?? 0),
    queryFn: () =>
      unwrap(api.GET('/api/checkout/invoice_keys/{invoice_id}', { params: { path: { invoice_id: id! } } })),
    enabled: id !== null,
    retry: retryServerErrors,
  });
}

/** GET /api/discounts/code/{code}?product_id=: the discounted price, or the discount's error. */
export function useDiscountQuote() {
  return useMutation({
    mutationFn: ({ code, product_id }: { code: string; product_id: number }) =>
      unwrap(api.GET('/api/discounts/code/{code}', { params: { path: { code }, query: { product_id } } })),
  });
}

/** GET /api/purchases/{id}, polled every 2 s until the status is final. */
export function usePolledPurchase(id: number) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: billingKeys.purchase(scope, id),
    queryFn: async () =>
      (await unwrap(api.GET('/api/purchases/{purchase_id}', { params: { path: { purchase_id: id } } })))
        .purchase,
    enabled: Number.isInteger(id) && id > 0,
    retry: retryServerErrors,
    refetchInterval: (query) =>
      query.state.data && FINAL.has(query.state.data.status) ? false : ORDER_SUMMARY_POLL_MS,
  });
}

/** GET /api/purchases: the caller's own purchases (first page of 50). */
export function usePurchases() {
  const scope = useScopeKey();
  return useQuery({
    queryKey: billingKeys.purchases(scope),
    queryFn: () => unwrap(api.GET('/api/purchases', { params: { query: { page: 1, limit: 50 } } })),
  });
}

/** GET /api/invoices: the caller's own invoices (first page of 50, newest first). */
export function useInvoices(enabled = true) {
  const scope = useScopeKey();
  return useQuery({
    queryKey: billingKeys.invoices(scope),
    enabled,
    queryFn: () => unwrap(api.GET('/api/invoices', { params: { query: { page: 1, limit: 50 } } })),
  });
}

/** POST /api/purchases/cancel/{id}: the subscription ends at the period end. */
export function useCancelPurchase() {
  return useMutation({
    mutationFn: ({ purchase_id, cancel_reason }: { purchase_id: number; cancel_reason: string }) =>
      unwrap(
        api.POST('/api/purchases/cancel/{purchase_id}', {
          params: { path: { purchase_id } },
          body: { cancel_reason, status: 'cancelled' },
        }),
      ),
  });
}

/** GET /api/payment_sources. */
export function usePaymentSources() {
  const scope = useScopeKey();
  return useQuery({
    queryKey: billingKeys.sources(scope),
    queryFn: async () => (await unwrap(api.GET('/api/payment_sources'))).payment_sources,
  });
}

/** POST /api/payment_sources/setup: a SetupIntent for Stripe.js to confirm with a new card. */
export const startCardSetup = () => unwrap(api.POST('/api/payment_sources/setup'));

/** POST /api/payment_sources: saves the card of a confirmed SetupIntent. */
export function useSaveCard() {
  const client = useQueryClient();
  const scope = useScopeKey();
  return useMutation({
    mutationFn: (setup_intent_id: string) =>
      unwrap(api.POST('/api/payment_sources', { body: { setup_intent_id } })),
    onSuccess: () => client.invalidateQueries({ queryKey: billingKeys.sources(scope) }),
  });
}

/** DELETE /api/payment_sources/{id}. */
export function useDeleteCard() {
  const client = useQueryClient();
  const scope = useScopeKey();
  return useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/api/payment_sources/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: billingKeys.sources(scope) }),
  });
}

export const checkoutAttempt = (body: CheckoutAttempt) => unwrap(api.POST('/api/checkout/attempt', { body }));
export const checkoutCapture = (body: ApiSchemas['CheckoutCaptureBody']) =>
  unwrap(api.POST('/api/checkout/capture', { body }));
export const paypalCreateOrder = (body: ApiSchemas['PayPalOrderBody']) =>
  unwrap(api.POST('/api/paypal/order', { body }));
export const paypalCaptureOrder = (body: ApiSchemas['PayPalCaptureBody']) =>
  unwrap(api.POST('/api/paypal/order/capture', { body }));
export const paypalCreateSubscription = (body: ApiSchemas['PayPalOrderBody']) =>
  unwrap(api.POST('/api/paypal/subscription', { body }));
export const paypalCaptureSubscription = (body: ApiSchemas['PayPalCaptureBody']) =>
  unwrap(api.POST('/api/paypal/subscription/capture', { body }));
