import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Principal } from '../../common/auth/principal';
import { DomainError } from '../../common/errors/domain-error';
import { MessagesService } from '../messages/messages.service';
import { RealtimeService } from '../realtime/realtime.service';
import { renderTemplate } from '../templates/template-rules';
import { TemplatesService } from '../templates/templates.service';
import { INTERRUPTED, type StepStatus } from './user-workflow-rules';
import { UserWorkflowsRepository } from './user-workflows.repository';

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
    private readonly repository: UserWorkflowsRepository,
    private readonly messages: MessagesService,
    private readonly realtime: RealtimeService,
    private readonly templates: TemplatesService,
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
    await this.repository.renew([...this.held]);
  }

  /**
   * Fails the steps left pending or generating by a stopped process (lease lapsed, not held here), and tells
   * their users; each can be regenerated.
   */
  async sweepAbandoned(): Promise<void> {
    const swept = await this.repository.failLapsed(INTERRUPTED, LEASE_MS / 1000, [...this.held]);
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
    const found = await this.repository.stepToRun(stepId);
    const template = found?.step.template_id
      ? (await this.templates.prompts([found.step.template_id]))[0]
      : undefined;
    const step: StepRow | null = found && {
      user_workflow_template_id: found.step.user_workflow_template_id,
      user_workflow_id: found.step.user_workflow_id,
      conversation_id: found.step.conversation_id,
      content: found.step.content,
      values: found.values,
      template_name: template?.name ?? null,
    };
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
      if (!(await this.repository.setStatus(step.user_workflow_template_id, status, error))) return false;
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
