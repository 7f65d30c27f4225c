import { Injectable, Logger } from '@nestjs/common';
import { JobQueue } from '../../common/jobs/job-queue';

export interface EmailJob {
  type: 'welcome' | 'reset_password';
  to: string;
  name: string;
  last_name?: string;
  link?: string;
}

/** Transactional mail: enqueues an 'email' job delivered to the configured webhook. */
@Injectable()
export class MailService {
  private readonly logger = new Logger('Mail');

  constructor(private readonly jobs: JobQueue) {}

  async sendWelcome(user: { email: string; name: string; last_name: string }): Promise<void> {
    await this.enqueue({ type: 'welcome', to: user.email, name: user.name, last_name: user.last_name });
  }

  async sendResetPassword(user: { email: string; name: string }, link: string): Promise<void> {
    await this.enqueue({ type: 'reset_password', to: user.email, name: user.name, link });
  }

  private async enqueue(job: EmailJob): Promise<void> {
    this.logger.debug(`queue ${job.type} mail`);
    await this.jobs.add('email', job, { attempts: 5 });
  }
}
