import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';
import { JobQueue } from '../../common/jobs/job-queue';
import { APP_ENV, type AppEnv } from '../../config/env';
import { AppConfigService } from '../app-config/app-config.service';

export type EmailType = 'welcome' | 'reset_password' | 'reset_link_notice' | 'organization_invitation';

/** What the 'email' job carries. */
export interface EmailJob {
  type: EmailType;
  to: string;
  name: string;
  last_name?: string;
  link?: string;
  /** A link holding a token, encrypted so that job data never carries it in clear (opened at delivery). */
  sealed_link?: string;
  /** reset_link_notice: when staff created the reset link (ISO 8601). */
  created_at?: string;
  /** organization_invitation: the organization's name, the role offered and the inviter's name. */
  organization_name?: string;
  role?: string;
  invited_by?: string;
  expires_at?: string;
}

/** The JSON posted to the webhook. */
export interface EmailWebhookBody extends Omit<EmailJob, 'sealed_link'> {
  app_name: string;
}

export const EMAIL_JOB = 'email';
const WEBHOOK_KEY: Record<EmailType, string> = {
  welcome: 'welcome_email_webhook_url',
  reset_password: 'reset_password_email_webhook_url',
  reset_link_notice: 'security_notice_email_webhook_url',
  organization_invitation: 'organization_invitation_email_webhook_url',
};
const WEBHOOK_TIMEOUT_MS = 10_000;
/** 2 s, 4 s, 8 s, 16 s between the five tries: rides out a webhook restarting, gives up within a minute. */
const RETRY = { attempts: 5, backoffMs: 2_000 };

/**
 * Transactional mail. The product does not send mail itself: it posts each message to the webhook set in app
 * config (an automation tool sends it), through a retried job so a slow or failing webhook never blocks the
 * request that caused it. With no webhook set, the message goes to the log so a fresh install still works.
 */
@Injectable()
export class MailService implements OnModuleInit {
  private readonly logger = new Logger('Mail');
  private readonly box: SecretBox;

  constructor(
    private readonly jobs: JobQueue,
    private readonly config: AppConfigService,
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
    await this.jobs.add<EmailJob>(
      EMAIL_JOB,
      { type: 'reset_password', to: user.email, name: user.name, link },
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

  /** An invitation to join an organization; the link (it holds the token) travels encrypted in the job. */
  async sendOrganizationInvitation(invitation: {
    to: string;
    organization_name: string;
    role: string;
    invited_by: string;
    link: string;
    expires_at: Date;
  }): Promise<void> {
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
        sealed_link: this.box.encrypt(invitation.link),
      },
      RETRY,
    );
  }

  /** The job handler: throws on any failure so the queue retries. */
  async deliver(job: EmailJob): Promise<void> {
    const { url, app_name } = await this.settings(job.type);
    const { sealed_link, ...rest } = job;
    const body: EmailWebhookBody = { ...rest, app_name };
    if (sealed_link) body.link = this.box.decrypt(sealed_link);
    if (!url) {
      if (sealed_link) {
        // A sealed link is a credential: the log says only that the email was not sent.
        this.logger.log(`No ${WEBHOOK_KEY[job.type]} set; ${job.type} email to ${job.to} not sent`);
        return;
      }
      this.logger.log(`No ${WEBHOOK_KEY[job.type]} set; ${job.type} email not sent: ${JSON.stringify(body)}`);
      return;
    }
    // The URL is set by staff admins only (app config), so it is trusted like the rest of the config.
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      redirect: 'error',
    });
    // Drain the body so the connection is released.
    await res.arrayBuffer().catch(() => undefined);
    if (!res.ok) throw new Error(`${job.type} email webhook answered ${res.status}`);
  }

  private async settings(type: EmailType): Promise<{ url: string | null; app_name: string }> {
    const key = WEBHOOK_KEY[type];
    const values = await this.config.getMany([key, 'app_name']);
    return { url: values[key] || null, app_name: values.app_name || 'Avatar Studio' };
  }
}
