import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { createHmac, randomUUID } from 'node:crypto';
import { JobQueue } from '../../../common/jobs/job-queue';
import { OutboundBlockedError } from '../../../common/outbound/address-policy';
import { describeOutboundFailure, OutboundHttp } from '../../../common/outbound/outbound-http';
import { badInput, notFound } from '../../../common/errors/domain-error';
import { ProductsService } from '../products.service';

export const PRODUCT_WEBHOOK_JOB = 'product-webhook';
/** 2 s, 4 s, 8 s, 16 s, 32 s between six tries: rides out a receiver restarting. */
const RETRY = { attempts: 6, backoffMs: 2_000 };
const TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 64 * 1024;
export const SIGNATURE_HEADER = 'x-avatar-studio-signature';

/** What the job carries: ids and the test's facts, never the URL's secret (it is derived when the job runs). */
export interface ProductWebhookJob {
  event_id: string;
  product_id: number;
  email: string | null;
  user_id: number | null;
  created: string;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: the receiver recomputes it with the product's key. */
export function signWebhookBody(secret: string, body: string, unixSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

/**
 * Test purchases: staff fire a product's webhook_url with a signed JSON body describing a purchase, through the
 * outbound client (public addresses only), in a job retried with back-off.
 */
@Injectable()
export class ProductWebhookJobs implements OnModuleInit {
  private readonly logger = new Logger('ProductWebhook');

  constructor(
    private readonly jobs: JobQueue,
    private readonly products: ProductsService,
    private readonly http: OutboundHttp,
  ) {}

  onModuleInit(): void {
    this.jobs.register<ProductWebhookJob>(PRODUCT_WEBHOOK_JOB, (job) => this.deliver(job));
  }

  async queueTest(input: { product_id: number; email?: string; user_id?: number }): Promise<string> {
    const product = await this.products.findById(input.product_id);
    if (!product) throw notFound('Product', 'product_not_found');
    if (!product.webhook_url) throw badInput('This product has no webhook URL.', 'bad_input');
    const event_id = randomUUID();
    await this.jobs.add<ProductWebhookJob>(
      PRODUCT_WEBHOOK_JOB,
      {
        event_id,
        product_id: product.product_id,
        email: input.email ?? null,
        user_id: input.user_id ?? null,
        created: new Date().toISOString(),
      },
      RETRY,
    );
    return event_id;
  }

  /** The job handler: throws on a failure worth retrying. */
  async deliver(job: ProductWebhookJob): Promise<void> {
    const product = await this.products.findById(job.product_id);
    if (!product?.webhook_url) {
      this.logger.log(
        `Test purchase ${job.event_id}: product ${job.product_id} has no webhook URL any more.`,
      );
      return;
    }
    const body = JSON.stringify({
      id: job.event_id,
      type: 'purchase.test',
      test: true,
      created: job.created,
      email: job.email,
      user_id: job.user_id,
      product: {
        product_id: product.product_id,
        name: product.name,
        product_sku: product.product_sku,
        price: product.price,
        sale_price: product.sale_price,
        currency: product.currency,
        word_amount: product.word_amount,
        is_subscription: product.is_subscription,
      },
    });
    const signature = signWebhookBody(
      this.products.webhookSecret(product.product_id),
      body,
      Math.floor(Date.now() / 1000),
    );
    try {
      const res = await this.http.request(product.webhook_url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature },
        body,
        timeoutMs: TIMEOUT_MS,
        maxBytes: MAX_RESPONSE_BYTES,
        maxRedirects: 0,
      });
      if (!res.ok) throw new Error(`answered ${res.status}`);
    } catch (err) {
      if (err instanceof OutboundBlockedError) {
        // Trying again cannot help: the address stays refused until someone changes the URL.
        this.logger.warn(`Test purchase ${job.event_id} not sent: ${err.message}.`);
        return;
      }
      throw new Error(
        `Test purchase ${job.event_id} to product ${product.product_id}'s webhook failed: ${
          err instanceof Error && err.message.startsWith('answered')
            ? err.message
            : describeOutboundFailure(err)
        }`,
      );
    }
  }
}
