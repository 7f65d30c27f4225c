import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../../common/jobs/job-queue';
import { AppConfigService } from '../app-config/app-config.service';

export type EmailType = 'welcome' | 'reset_password' | 'verify_email';

/** What the 'email' job carries. */
export interface EmailJob {
  type: EmailType;
  to: string;
  name: string;
  last_name?: string;
  link?: string;
}

/** The JSON posted to the webhook. */
export interface EmailWebhookBody extends EmailJob {
  app_name: string;
}

export const EMAIL_JOB = 'email';
const WEBHOOK_KEY: Record<EmailType, string> = {
  welcome: 'welcome_email_webhook_url',
  reset_password: 'reset_password_email_webhook_url',
  // The address check belongs with the welcome message; the automation tool tells them apart by `type`.
  verify_email: 'welcome_email_webhook_url',
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

  constructor(
    private readonly jobs: JobQueue,
    private readonly config: AppConfigService,
  ) {}

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

  async sendVerifyEmail(user: { email: string; name: string }, link: string): Promise<void> {
    await this.jobs.add<EmailJob>(
      EMAIL_JOB,
      { type: 'verify_email', to: user.email, name: user.name, link },
      RETRY,
    );
  }

  /** The job handler: throws on any failure so the queue retries. */
  async deliver(job: EmailJob): Promise<void> {
    const { url, app_name } = await this.settings(job.type);
    const body: EmailWebhookBody = { ...job, app_name };
    if (!url) {
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
