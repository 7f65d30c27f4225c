import { Inject, Injectable, Logger } from '@nestjs/common';
import type { SetupItem, SetupProblem, SetupWarning } from '@avatar-studio/contracts';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { Principal } from '../../common/auth/principal';
import { OutboundPolicy } from '../../common/outbound/address-policy';
import { checkHost } from '../../common/outbound/guarded-lookup';
import { describeOutboundFailure, OutboundHttp } from '../../common/outbound/outbound-http';
import { APP_ENV, AppEnv } from '../../config/env';
import { AiError } from '../ai/ai.errors';
import { AiService } from '../ai/ai.service';
import { AppConfigService } from '../app-config/app-config.service';
import { StorageResolver } from '../files/storage/storage.resolver';
import { MailService } from '../mail/mail.service';
import { PayPalError, PayPalClient } from '../payments/paypal.client';
import { PLATFORM_ACCOUNT, StripeAccounts } from '../payments/stripe-accounts';
import { RealtimeService } from '../realtime/realtime.service';
import { SEARCH_REFUSED_MESSAGE, SearchService } from '../search/search.service';
import { UsersService } from '../users/users.service';
import { setupProblem, SetupProblemError, SETUP_PROBLEM_MESSAGES } from './setup-messages';

/** What one connection test found; `message` is a plain English sentence (the screen words it from the codes). */
export interface SetupTestOutcome {
  item: SetupItem;
  ok: boolean;
  problem: SetupProblem | null;
  message: string;
  warnings: SetupWarning[];
  /** The AI provider's models (at most 200) and its one-line answer; the number of search results. */
  models?: string[];
  answer?: string;
  results?: number;
}

/** The question of the AI check; a fixed text of ours, never anything from outside. */
const AI_CHECK_PROMPT =
  'Reply with one short friendly sentence confirming that you are connected and ready to write content.';
const AI_CHECK_MAX_TOKENS = 60;
const AI_CHECK_TIMEOUT_MS = 20_000;
const SEARCH_CHECK_QUERY = 'content marketing ideas';
const SEARCH_CHECK_TIMEOUT_MS = 10_000;

/**
 * The connection tests of the setup checklist. Each one uses the product's own door to the service (the AI
 * service, the search service, the mail sender, the file storage, the Stripe and PayPal clients), so a passed
 * test means the feature works. Answers carry fixed sentences only: never a key, a URL or a provider's text.
 */
@Injectable()
export class SetupChecksService {
  private readonly logger = new Logger('SetupChecks');
  /** The outbound policy without the operator's allow-list: what a payment provider on the internet can reach. */
  private readonly publicOnly = new OutboundPolicy([]);

  constructor(
    @Inject(APP_ENV) private readonly env: AppEnv,
    private readonly config: AppConfigService,
    private readonly ai: AiService,
    private readonly search: SearchService,
    private readonly mail: MailService,
    private readonly storage: StorageResolver,
    private readonly stripe: StripeAccounts,
    private readonly paypal: PayPalClient,
    private readonly realtime: RealtimeService,
    private readonly users: UsersService,
    private readonly outbound: OutboundHttp,
  ) {}

  async run(item: SetupItem, me: Principal, testId: string | undefined): Promise<SetupTestOutcome> {
    const warnings: SetupWarning[] = [];
    try {
      const extra = await this.check(item, me, testId, warnings);
      return { item, ok: true, problem: null, message: 'It works.', warnings, ...extra };
    } catch (err) {
      if (!(err instanceof SetupProblemError)) {
        this.logger.warn(`The ${item} check failed unexpectedly: ${describeOutboundFailure(err)}`);
      }
      const problem = err instanceof SetupProblemError ? err.problem : 'not_configured';
      return { item, ok: false, problem, message: SETUP_PROBLEM_MESSAGES[problem], warnings };
    }
  }

  private check(
    item: SetupItem,
    me: Principal,
    testId: string | undefined,
    warnings: SetupWarning[],
  ): Promise<Partial<SetupTestOutcome>> {
    switch (item) {
      case 'ai':
        return this.checkAi(me, testId, warnings);
      case 'search':
        return this.checkSearch();
      case 'email':
        return this.checkEmail(me);
      case 'storage':
        return this.checkStorage();
      case 'stripe':
        return this.checkStripe(warnings);
      case 'paypal':
        return this.checkPayPal(warnings);
      default:
        // Branding, products and sign-up are settings, not connections: the checklist shows their state.
        throw setupProblem('not_configured');
    }
  }

  /** Lists the models, then streams a one-line answer to the admin's socket (no words charged: not a generation). */
  private async checkAi(
    me: Principal,
    testId: string | undefined,
    warnings: SetupWarning[],
  ): Promise<Partial<SetupTestOutcome>> {
    let listed: Awaited<ReturnType<AiService['listProviderModels']>>;
    try {
      listed = await this.ai.listProviderModels();
    } catch (err) {
      throw setupProblem(
        err instanceof AiError && err.code === 'ai_not_configured' ? 'not_configured' : 'address_refused',
      );
    }
    if (!listed.ok && listed.reason === 'rejected') throw setupProblem('ai_key_rejected');
    if (!listed.ok && listed.reason === 'unreachable') throw setupProblem('ai_unreachable');
    if (!listed.ok) warnings.push('ai_models_unlisted');
    let answer = '';
    try {
      const stream = this.ai.stream({
        messages: [{ role: 'user', content: AI_CHECK_PROMPT }],
        maxTokens: AI_CHECK_MAX_TOKENS,
        timeoutMs: AI_CHECK_TIMEOUT_MS,
      });
      for await (const { delta } of stream) {
        answer += delta;
        if (testId) this.realtime.emitToUser(me.user_id, 'setup_test_output', { test_id: testId, delta });
      }
    } catch (err) {
      if (err instanceof AiError && err.code === 'openai_error') throw setupProblem('ai_key_rejected');
      throw setupProblem(answer ? 'ai_no_answer' : 'ai_unreachable');
    }
    if (!answer.trim()) throw setupProblem('ai_no_answer');
    return { models: listed.ok ? listed.models : [], answer: answer.trim() };
  }

  private async checkSearch(): Promise<Partial<SetupTestOutcome>> {
    const provider = await this.search.provider();
    if (!provider) throw setupProblem('not_configured');
    let results: number;
    try {
      results = (
        await this.search.search(provider, SEARCH_CHECK_QUERY, AbortSignal.timeout(SEARCH_CHECK_TIMEOUT_MS))
      ).length;
    } catch (err) {
      throw setupProblem(
        err instanceof Error && err.message === SEARCH_REFUSED_MESSAGE ? 'address_refused' : 'search_failed',
      );
    }
    if (results === 0) throw setupProblem('search_no_results');
    return { results };
  }

  /** Sends a sample welcome message to the admin through the mail module's sender (the job's own handler). */
  private async checkEmail(me: Principal): Promise<Partial<SetupTestOutcome>> {
    const url = await this.config.get('welcome_email_webhook_url');
    if (!url) throw setupProblem('not_configured');
    try {
      await this.outbound.checkUrl(url);
    } catch {
      throw setupProblem('address_refused');
    }
    const user = await this.users.findById(me.user_id);
    try {
      await this.mail.deliver({
        type: 'welcome',
        to: me.email,
        name: user?.name ?? '',
        last_name: user?.last_name ?? '',
      });
    } catch {
      throw setupProblem('email_failed');
    }
    return {};
  }

  /** Writes, reads back and deletes a small object where uploads go (the S3 bucket, or the disk). */
  private async checkStorage(): Promise<Partial<SetupTestOutcome>> {
    const key = `${randomBytes(24).toString('hex')}.txt`;
    const content = Buffer.from(`Avatar Studio storage check ${new Date().toISOString()}`);
    let storage;
    try {
      storage = await this.storage.current();
      await storage.put(key, content, 'text/plain');
    } catch (err) {
      this.logger.warn(`Storage check: ${describeOutboundFailure(err)}`);
      throw setupProblem('storage_write_failed');
    }
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of await storage.read(key)) chunks.push(Buffer.from(chunk as Buffer));
      if (!Buffer.concat(chunks).equals(content)) throw setupProblem('storage_read_mismatch');
    } catch (err) {
      if (err instanceof SetupProblemError) throw err;
      throw setupProblem('storage_read_mismatch');
    } finally {
      await storage.remove(key).catch(() => undefined);
    }
    return {};
  }

  private async checkStripe(warnings: SetupWarning[]): Promise<Partial<SetupTestOutcome>> {
    const account = await this.stripe.find(PLATFORM_ACCOUNT);
    if (!account) throw setupProblem('not_configured');
    try {
      await account.stripe.products.list({ limit: 1 });
    } catch (err) {
      if (
        err instanceof Stripe.errors.StripeAuthenticationError ||
        err instanceof Stripe.errors.StripePermissionError
      )
        throw setupProblem('stripe_key_rejected');
      throw setupProblem('stripe_unreachable');
    }
    if (!account.webhookSecret) throw setupProblem('stripe_webhook_secret_missing');
    if (!(await this.reachableFromInternet())) warnings.push('webhook_address_private');
    return {};
  }

  private async checkPayPal(warnings: SetupWarning[]): Promise<Partial<SetupTestOutcome>> {
    const keys = await this.config.getMany(['paypal_client_id', 'paypal_client_secret', 'paypal_webhook_id']);
    if (!keys.paypal_client_id || !keys.paypal_client_secret) throw setupProblem('not_configured');
    try {
      await this.paypal.checkCredentials();
    } catch (err) {
      throw setupProblem(err instanceof PayPalError ? 'paypal_key_rejected' : 'paypal_unreachable');
    }
    if (!keys.paypal_webhook_id) warnings.push('paypal_webhook_id_missing');
    if (!(await this.reachableFromInternet())) warnings.push('webhook_address_private');
    return {};
  }

  /** Whether PUBLIC_URL (where the payment webhooks are posted) is a public address a provider can reach. */
  private async reachableFromInternet(): Promise<boolean> {
    try {
      await checkHost(this.publicOnly, new URL(this.env.publicUrl).hostname);
      return true;
    } catch {
      return false;
    }
  }
}
