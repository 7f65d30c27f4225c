import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { SecretBox } from '../../common/crypto/secret-box';
import { JobQueue } from '../../common/jobs/job-queue';
import { OutboundBlockedError } from '../../common/outbound/address-policy';
import { describeOutboundFailure, OutboundHttp } from '../../common/outbound/outbound-http';
import { APP_ENV, AppEnv } from '../../config/env';
import { AppConfigService } from '../app-config/app-config.service';
import { MailSecretsRepository } from './mail-secrets.repository';

export type EmailType =
  | 'welcome'
  | 'reset_password'
  | 'verify_email'
  | 'reset_link_notice'
  | 'organization_invitation'
  | 'payment_failed';

/** What the 'email' job carries: never a link or token, only the id of the encrypted link (see mail_secrets). */
export interface EmailJob {
  type: EmailType;
  to: string;
  name: string;
  last_name?: string;
  link_id?: string;
  /** reset_link_notice: when staff created the reset link (ISO 8601). */
  created_at?: string;
  /** organization_invitation: the organization's name, the role offered, the inviter's name, the expiry. */
  organization_name?: string;
  role?: string;
  invited_by?: string;
  expires_at?: string;
  /** payment_failed: what was not paid, and how much (USD, two decimals). */
  product_name?: string;
  amount?: string;
}

/** The JSON posted to the webhook: the job's fields, with the link read back, and the app's name. */
export interface EmailWebhookBody extends Omit<EmailJob, 'link_id'> {
  link?: string;
  app_name: string;
}

export const EMAIL_JOB = 'email';
const WEBHOOK_KEY: Record<EmailType, string> = {
  welcome: 'welcome_email_webhook_url',
  reset_password: 'reset_password_email_webhook_url',
  // The address check belongs with the welcome message; the automation tool tells them apart by `type`.
  verify_email: 'welcome_email_webhook_url',
  reset_link_notice: 'security_notice_email_webhook_url',
  organization_invitation: 'organization_invitation_email_webhook_url',
  payment_failed: 'payment_failed_email_webhook_url',
};
const WEBHOOK_TIMEOUT_MS = 10_000;
/** The webhook's answer is only checked for its status. */
const WEBHOOK_MAX_RESPONSE_BYTES = 64 * 1024;
/** 2 s, 4 s, 8 s, 16 s between the five tries: rides out a webhook restarting, gives up within a minute. */
const RETRY = { attempts: 5, backoffMs: 2_000 };
/** A stored link outlives any try to send it (reset links themselves die after an hour). */
const LINK_TTL_MS = 2 * 60 * 60 * 1000;

/**
 * Transactional mail. The product does not send mail itself: it posts each message to the webhook set in app
 * config (an automation tool sends it), through a retried job so a slow or failing webhook never blocks the
 * request that caused it. With no webhook set, the log says that the email was not sent, never what it held.
 */
@Injectable()
export class MailService implements OnModuleInit {
  private readonly logger = new Logger('Mail');
  private readonly box: SecretBox;

  constructor(
    private readonly jobs: JobQueue,
    private readonly config: AppConfigService,
    private readonly secrets: MailSecretsRepository,
    private readonly http: OutboundHttp,
    @Inject(APP_ENV) env: AppEnv,
  ) {
    this.box = new SecretBox(env.appSecret);
  }

  onModuleInit(): void {
    this.jobs.register<EmailJob>(EMAIL_JOB, (job) => this.deliver(job));
  }

  async sendWelcome(user: { email: string; name: string; last_name: string }): Promise<void> {
    await this.jobs.add<EmailJob>(
      EMAIL_JOB,
      { type: 'welcome', to: user.email, name: user.name, last_name: user.last_name },
      RETRY,
    );
  }

  async sendResetPassword(user: { email: string; name: string }, link: string): Promise<void> {
    const link_id = await this.storeLink(link);
    await this.jobs.add<EmailJob>(
      EMAIL_JOB,
      { type: 'reset_password', to: user.email, name: user.name, link_id },
      RETRY,
    );
  }

  async sendVerifyEmail(user: { email: string; name: string }, link: string): Promise<void> {
    const link_id = await this.storeLink(link);
    await this.jobs.add<EmailJob>(
      EMAIL_JOB,
      { type: 'verify_email', to: user.email, name: user.name, link_id },
      RETRY,
    );
  }

  /**
   * Tells a user that staff created a password reset link for their account, and when; never the link itself
   * (whoever holds it can take the account over).
   */
  async sendResetLinkNotice(user: { email: string; name: string }, createdAt: Date): Promise<void> {
    await this.jobs.add<EmailJob>(
      EMAIL_JOB,
      { type: 'reset_link_notice', to: user.email, name: user.name, created_at: createdAt.toISOString() },
      RETRY,
    );
  }

  /** An invitation to join an organization; its link holds the token, so it is stored like the reset links. */
  async sendOrganizationInvitation(invitation: {
    to: string;
    organization_name: string;
    role: string;
    invited_by: string;
    link: string;
    expires_at: Date;
  }): Promise<void> {
    const link_id = await this.storeLink(invitation.link, invitation.expires_at);
    await this.jobs.add<EmailJob>(
      EMAIL_JOB,
      {
        type: 'organization_invitation',
        to: invitation.to,
        name: '',
        organization_name: invitation.organization_name,
        role: invitation.role,
        invited_by: invitation.invited_by,
        expires_at: invitation.expires_at.toISOString(),
        link_id,
      },
      RETRY,
    );
  }

  /** A subscription's renewal could not be charged: the user is asked to update their card. */
  async sendPaymentFailed(
    user: { email: string; name: string },
    payment: { product_name: string; amount_cents: number },
  ): Promise<void> {
    await this.jobs.add<EmailJob>(
      EMAIL_JOB,
      {
        type: 'payment_failed',
        to: user.email,
        name: user.name,
        product_name: payment.product_name,
        amount: (payment.amount_cents / 100).toFixed(2),
      },
      RETRY,
    );
  }

  /** The job handler: throws on a failure worth retrying so the queue retries. */
  async deliver(job: EmailJob): Promise<void> {
    const { url, app_name } = await this.settings(job.type);
    if (!url) {
      this.logger.log(`No ${WEBHOOK_KEY[job.type]} set; the ${job.type} email to ${job.to} was not sent.`);
      await this.dropLink(job.link_id);
      return;
    }
    let link: string | undefined;
    if (job.link_id) {
      link = (await this.readLink(job.link_id)) ?? undefined;
      if (!link) {
        this.logger.warn(`The ${job.type} email to ${job.to} was not sent: its link expired first.`);
        return;
      }
    }
    const { link_id: _stored, ...fields } = job;
    const body: EmailWebhookBody = { ...fields, ...(link ? { link } : {}), app_name };
    try {
      const res = await this.http.request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        timeoutMs: WEBHOOK_TIMEOUT_MS,
        maxBytes: WEBHOOK_MAX_RESPONSE_BYTES,
        maxRedirects: 0,
      });
      if (!res.ok) throw new Error(`${job.type} email webhook answered ${res.status}`);
    } catch (err) {
      if (err instanceof OutboundBlockedError) {
        // Trying again cannot help: the address stays refused until an admin changes the URL.
        this.logger.warn(`The ${job.type} email to ${job.to} was not sent: ${err.message}.`);
        await this.dropLink(job.link_id);
        return;
      }
      throw new Error(`The ${job.type} email to ${job.to} was not sent: ${describeOutboundFailure(err)}`);
    }
    await this.dropLink(job.link_id);
  }

  private async settings(type: EmailType): Promise<{ url: string | null; app_name: string }> {
    const key = WEBHOOK_KEY[type];
    const values = await this.config.getMany([key, 'app_name']);
    return { url: values[key] || null, app_name: values.app_name || 'Avatar Studio' };
  }

  /** Keeps a link (it holds a token) encrypted until its email is sent, and no longer than it is valid for. */
  private async storeLink(link: string, validUntil?: Date): Promise<string> {
    const id = randomUUID();
    await this.secrets.deleteExpired();
    await this.secrets.insert({
      id,
      value: this.box.encrypt(link),
      expires_at:
        validUntil && validUntil.getTime() > Date.now() + LINK_TTL_MS
          ? validUntil
          : new Date(Date.now() + LINK_TTL_MS),
    });
    return id;
  }

  private async readLink(id: string): Promise<string | null> {
    const value = await this.secrets.findValid(id);
    return value ? this.box.decrypt(value) : null;
  }

  private async dropLink(id: string | undefined): Promise<void> {
    if (id) await this.secrets.delete(id);
  }
}
