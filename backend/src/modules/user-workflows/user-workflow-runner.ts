import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '../../common/auth/principal';
import { DomainError } from '../../common/errors/domain-error';
import { MessagesService } from '../messages/messages.service';
import { RealtimeService } from '../realtime/realtime.service';
import { renderTemplate } from '../templates/template-rules';
import { INTERRUPTED, type StepStatus } from './user-workflow-rules';

/** An unfinished step nobody has touched for this long was left by a stopped process. */
export const LEASE_MS = 90_000;
/** How often a process touches the steps it is running (well inside LEASE_MS). */
const RENEW_MS = 20_000;
/** How often each process looks for abandoned steps. */
const SWEEP_MS = 30_000;

/** A failure of ours rather than a rule or the provider: the step only says it did not work. */
const STEP_FAILED = 'The content could not be generated. Please regenerate this step.';

interface StepRow {
  user_workflow_template_id: number;
  user_workflow_id: number;
  conversation_id: number;
  content: string;
  values: Record<string, string>;
  /** Null when the template was deleted since the run started (its prompt is kept with the step). */
  template_name?: string | null;
}

/** What a step's user message shows when its template was deleted since the run started. */
const DELETED_TEMPLATE_NAME = 'Template';

/**
 * Generates the steps of user workflows, one after the other, in this process: each step sends its template's
 * prompt, filled with the user workflow's current values, into its conversation through MessagesService (which
 * streams it over the socket, saves and charges it), and records the step's status, telling the user on the
 * `message` socket event after every change. A failed step does not stop the later ones: each step is its own
 * content, and the failed one can be regenerated.
 *
 * Steps are leased, so several instances can run side by side: the process running a run's steps touches their
 * `updatedAt` every RENEW_MS, and every instance periodically fails the unfinished steps nobody has touched for
 * LEASE_MS (their process stopped or crashed), never its own. Kept apart from UserWorkflowsService: its input is
 * only the caller and step ids and all state is in the database, so it can move to a BullMQ job per run.
 */
@Injectable()
export class UserWorkflowRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('UserWorkflows');
  private stopping = false;
  /** Steps this process is running or will run next: their lease is renewed, and no sweep fails them. */
  private readonly held = new Set<number>();
  private timers: ReturnType<typeof setInterval>[] = [];

  constructor(
    private readonly db: DataSource,
    private readonly messages: MessagesService,
    private readonly realtime: RealtimeService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.sweepAbandoned();
    const every = (ms: number, task: () => Promise<unknown>) => {
      const timer = setInterval(() => {
        task().catch((err: unknown) =>
          this.logger.warn(`Step lease upkeep failed: ${err instanceof Error ? err.message : String(err)}`),
        );
      }, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(RENEW_MS, () => this.renewLeases());
    every(SWEEP_MS, () => this.sweepAbandoned());
  }

  /**
   * Once the app is shutting down no step starts; a step whose answer finishes while the generation engine
   * drains is still recorded; what is left unfinished lapses and is failed by the next sweep of any instance.
   */
  onModuleDestroy(): void {
    this.stopping = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  /** Touches the unfinished steps this process holds, so other instances know they are alive. */
  async renewLeases(): Promise<void> {
    if (this.held.size === 0) return;
    await this.db.query(
      `UPDATE user_workflow_templates SET "updatedAt" = now()
        WHERE user_workflow_template_id = ANY($1) AND status IN ('pending', 'generating')`,
      [[...this.held]],
    );
  }

  /**
   * Fails the steps left pending or generating by a stopped process (lease lapsed, not held here), and tells
   * their users; each can be regenerated.
   */
  async sweepAbandoned(): Promise<void> {
    const [swept] = (await this.db.query(
      `UPDATE user_workflow_templates s SET status = 'failed', error = $1, "updatedAt" = now()
         FROM user_workflows uw
        WHERE uw.user_workflow_id = s.user_workflow_id AND s.status IN ('pending', 'generating')
          AND s."updatedAt" < now() - make_interval(secs => $2) AND NOT (s.user_workflow_template_id = ANY($3))
        RETURNING uw.user_id, s.user_workflow_id, s.user_workflow_template_id, s.conversation_id`,
      [INTERRUPTED, LEASE_MS / 1000, [...this.held]],
    )) as [(StepRow & { user_id: number })[], number];
    for (const step of swept) this.emit(step.user_id, step, 'failed');
  }

  /** Starts generating the given steps in the background, in the order given; never throws. */
  run(me: Principal, stepIds: number[]): void {
    for (const stepId of stepIds) this.held.add(stepId);
    void (async () => {
      try {
        for (const stepId of stepIds) {
          if (this.stopping) return;
          await this.runStep(me, stepId);
          this.held.delete(stepId);
        }
      } finally {
        for (const stepId of stepIds) this.held.delete(stepId);
      }
    })().catch((err: unknown) =>
      this.logger.error(
        `A user workflow run failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      ),
    );
  }

  /** One step; skipped when it no longer exists (its user workflow or its conversation was deleted). */
  private async runStep(me: Principal, stepId: number): Promise<void> {
    const [step] = (await this.db.query(
      `SELECT s.user_workflow_template_id, s.user_workflow_id, s.conversation_id, s.content, uw."values",
              t.name AS template_name
         FROM user_workflow_templates s JOIN user_workflows uw ON uw.user_workflow_id = s.user_workflow_id
         LEFT JOIN templates t ON t.template_id = s.template_id
        WHERE s.user_workflow_template_id = $1`,
      [stepId],
    )) as StepRow[];
    if (!step || !(await this.setStatus(me, step, 'generating', null))) return;
    try {
      // As with template apply, the user message shows the template's name; the filled prompt stays hidden.
      await this.messages.sendAndWait(
        me,
        { conversation_id: step.conversation_id, stream: true },
        {
          visible: step.template_name ?? DELETED_TEMPLATE_NAME,
          prompt: renderTemplate(step.content, step.values ?? {}),
        },
      );
      await this.setStatus(me, step, 'done', null);
    } catch (err) {
      // Stopped by the shutdown: the database may be closing; the step's lease lapses and a sweep fails it.
      if (this.stopping) return;
      if (!(err instanceof DomainError))
        this.logger.error(
          `Step ${stepId} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
        );
      const error = err instanceof DomainError ? err.message : STEP_FAILED;
      await this.setStatus(me, step, 'failed', error);
    }
  }

  /** Records the status and tells the user; false when the step is gone. A write failure is logged, not thrown. */
  private async setStatus(
    me: Principal,
    step: StepRow,
    status: StepStatus,
    error: string | null,
  ): Promise<boolean> {
    // While the app drains, a step whose answer finishes is still recorded; none starts.
    if (this.stopping && status !== 'done' && status !== 'failed') return false;
    try {
      const [, affected] = (await this.db.query(
        `UPDATE user_workflow_templates SET status = $2, error = $3, "updatedAt" = now()
          WHERE user_workflow_template_id = $1`,
        [step.user_workflow_template_id, status, error],
      )) as [unknown[], number];
      if (!affected) return false;
    } catch (err) {
      this.logger.warn(
        `Could not record step ${step.user_workflow_template_id} as ${status}: ${err instanceof Error ? err.message : String(err)}`,
      );
      return false;
    }
    this.emit(me.user_id, step, status);
    return true;
  }

  /** The `message` socket event for a step's new status, to the user whose step it is. */
  emit(
    userId: number,
    step: Pick<StepRow, 'user_workflow_id' | 'user_workflow_template_id' | 'conversation_id'>,
    status: StepStatus,
  ): void {
    this.realtime.emitToUser(userId, 'message', {
      user_workflow_id: step.user_workflow_id,
      user_workflow_template_id: step.user_workflow_template_id,
      conversation_id: step.conversation_id,
      status,
    });
  }
}
