/**
 * PayPal's buttons, from PayPal's JS SDK loaded with the app's client id (for a subscription with vault=true and
 * intent=subscription). The order or plan is made by our server, so the price is never the page's.
 */
import { Alert } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';

interface PayPalButtonsActions {
  order?: { create(o: unknown): Promise<string> };
  subscription?: { create(o: { plan_id: string; custom_id?: string }): Promise<string> };
}
interface PayPalNamespace {
  Buttons(options: {
    style?: Record<string, string>;
    createOrder?: () => Promise<string>;
    createSubscription?: (data: unknown, actions: PayPalButtonsActions) => Promise<string>;
    onApprove: (data: { orderID?: string; subscriptionID?: string }) => Promise<void>;
    onError?: (error: unknown) => void;
  }): { render(container: HTMLElement): Promise<void>; close?: () => Promise<void> };
}
declare global {
  interface Window {
    paypal?: PayPalNamespace;
  }
}

export const PAYPAL_SDK = 'https://www.paypal.com/sdk/js';

const scripts = new Map<string, Promise<PayPalNamespace>>();

/** Loads PayPal's SDK once per query (client id and intent). */
function loadPayPal(clientId: string, subscription: boolean): Promise<PayPalNamespace> {
  const query = new URLSearchParams({ 'client-id': clientId, currency: 'USD', components: 'buttons' });
  if (subscription) {
    query.set('vault', 'true');
    query.set('intent', 'subscription');
  }
  const src = `${PAYPAL_SDK}?${query}`;
  let promise = scripts.get(src);
  if (!promise) {
    promise = new Promise((resolve, reject) => {
      document.querySelectorAll(`script[data-paypal-sdk]`).forEach((s) => s.remove());
      const script = document.createElement('script');
      script.src = src;
      script.dataset.paypalSdk = 'true';
      script.onload = () =>
        window.paypal ? resolve(window.paypal) : reject(new Error('PayPal did not load.'));
      script.onerror = () => reject(new Error('PayPal did not load.'));
      document.head.appendChild(script);
    });
    scripts.set(src, promise);
  }
  return promise;
}

export function PayPalButtons(props: {
  clientId: string;
  subscription: boolean;
  /** One-off products: our order id. */
  createOrder: () => Promise<string>;
  /** Subscriptions: the plan made for this purchase and its purchase id. */
  createPlan: () => Promise<{ plan_id: string; purchase_id: number }>;
  onApproved: (data: { orderID?: string; subscriptionID?: string; purchase_id?: number }) => Promise<void>;
  onError: (error: unknown) => void;
}) {
  const { clientId, subscription } = props;
  // The buttons are drawn once per client id and kind; their callbacks read the latest props (discount code...).
  const latest = useRef(props);
  latest.current = props;
  const container = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    let purchaseId: number | undefined;
    loadPayPal(clientId, subscription)
      .then((paypal) => {
        if (cancelled || !container.current) return;
        container.current.innerHTML = '';
        return paypal
          .Buttons({
            style: { layout: 'horizontal', label: subscription ? 'subscribe' : 'paypal' },
            ...(subscription
              ? {
                  createSubscription: async (_data, actions) => {
                    const plan = await latest.current.createPlan();
                    purchaseId = plan.purchase_id;
                    return actions.subscription!.create({
                      plan_id: plan.plan_id,
                      custom_id: String(plan.purchase_id),
                    });
                  },
                }
              : { createOrder: () => latest.current.createOrder() }),
            onApprove: (data) => latest.current.onApproved({ ...data, purchase_id: purchaseId }),
            onError: (error) => latest.current.onError(error),
          })
          .render(container.current);
      })
      .catch((error: Error) => !cancelled && setFailed(error.message));
    return () => {
      cancelled = true;
    };
  }, [clientId, subscription]);
  if (failed) return <Alert color="red">{failed}</Alert>;
  return <div ref={container} data-testid="paypal-buttons" />;
}
