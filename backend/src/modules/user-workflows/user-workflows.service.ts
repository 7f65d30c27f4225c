import { Injectable, Logger } from '@nestjs/common';
import { scopeOf } from '../../common/database/owner-scope';
import { UnitOfWork } from '../../database/unit-of-work';
import type { Principal } from '../../common/auth/principal';
import { badInput, conflict, DomainError, forbidden, notFound } from '../../common/errors/domain-error';
import { likePattern, toPage } from '../../common/http/pagination';
import { MAX_NAME_LENGTH as MAX_CONVERSATION_NAME } from '../conversations/conversation-rules';
import { ConversationsService } from '../conversations/conversations.service';
import { MessagesService } from '../messages/messages.service';
import { placeholders } from '../templates/template-rules';
import { TemplatesService } from '../templates/templates.service';
import { workflowFields } from '../workflows/workflow-rules';
import { WorkflowsService } from '../workflows/workflows.service';
import type {
  StartUserWorkflowBody,
  UpdateUserWorkflowBody,
  UserWorkflowDto,
  UserWorkflowListQuery,
  UserWorkflowPageResponse,
  UserWorkflowTemplateDto,
} from './dto/user-workflow.dto';
import type { UserWorkflow, UserWorkflowStep } from './user-workflow.entity';
import { UserWorkflowRunner } from './user-workflow-runner';
import { UserWorkflowsRepository, type UserWorkflowChanges } from './user-workflows.repository';
import { parseValues, requireValues } from './user-workflow-rules';

const PAGE_SIZE = 24;
const userWorkflowNotFound = () => notFound('User workflow', 'user_workflow_not_found');

/** "{workflow} – {template}", cut to what a conversation name holds. */
function conversationName(workflow: string, template: string): string {
  const name = `${workflow} – ${template}`;
  return name.length <= MAX_CONVERSATION_NAME ? name : `${name.slice(0, MAX_CONVERSATION_NAME - 1)}…`;
}

/**
 * A customer's runs of workflows. Starting one creates a conversation per step and generates the steps in order
 * in the background (UserWorkflowRunner); each step can then be regenerated. Owner and scope as conversations:
 * another user's, or the caller's own from another scope, is 404.
 */
@Injectable()
export class UserWorkflowsService {
  private readonly logger = new Logger('UserWorkflows');

  constructor(
    private readonly repository: UserWorkflowsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly workflows: WorkflowsService,
    private readonly conversations: ConversationsService,
    private readonly messages: MessagesService,
    private readonly runner: UserWorkflowRunner,
    private readonly templates: TemplatesService,
  ) {}

  async list(me: Principal, query: UserWorkflowListQuery): Promise<UserWorkflowPageResponse> {
    const page = toPage(query, PAGE_SIZE);
    const text = query.query?.trim();
    const { rows, total } = await this.repository.page(scopeOf(me), text ? likePattern(text) : null, page);
    return { user_workflows: await this.withSteps(rows), total, page: page.page, limit: page.limit };
  }

  async get(me: Principal, userWorkflowId: number): Promise<UserWorkflowDto> {
    const row = await this.repository.findOwned(scopeOf(me), userWorkflowId);
    if (!row) throw userWorkflowNotFound();
    const [dto] = await this.withSteps([row]);
    return dto;
  }

  async start(me: Principal, body: StartUserWorkflowBody): Promise<UserWorkflowDto> {
    const given = parseValues(body.values);
    const workflow = await this.workflows.get(body.workflow_id);
    const steps = await this.workflows.steps(workflow.workflow_id);
    // Its templates may all have been deleted since it was made.
    if (!steps.length) throw badInput('This workflow has no templates to run.', 'workflow_empty');
    const values = requireValues(
      workflowFields(steps).map((f) => f.name),
      given,
    );
    await this.checkAccess(me);
    await this.checkTemplatesVisible(me, steps);

    // Conversations are ConversationsService's (own transactions); if anything below fails they are removed.
    const conversationIds: number[] = [];
    let started: { id: number; stepIds: number[] };
    try {
      for (const step of steps) {
        const conversation = await this.conversations.create(
          me,
          { name: conversationName(workflow.name, step.name) },
          { accessChecked: true },
        );
        conversationIds.push(conversation.conversation_id);
      }
      started = await this.unitOfWork.run(async (m) => {
        // A template deleted meanwhile leaves its step without one (the prompt is kept with the step).
        const existing = await this.templates.lockExisting(
          steps.map((s) => s.template_id),
          m,
        );
        return this.repository.insert(
          m,
          {
            user_id: me.user_id,
            organization_id: me.org?.organization_id ?? null,
            workflow_id: workflow.workflow_id,
            name: body.name?.trim() || workflow.name,
            description: body.description === undefined ? workflow.description : body.description.trim(),
            values,
          },
          steps.map((step, i) => ({
            template_id: existing.includes(step.template_id) ? step.template_id : null,
            conversation_id: conversationIds[i],
            content: step.content,
          })),
        );
      });
    } catch (err) {
      await this.dropConversations(me, conversationIds);
      throw err;
    }
    this.runner.run(me, started.stepIds);
    return this.get(me, started.id);
  }

  async update(me: Principal, body: UpdateUserWorkflowBody): Promise<UserWorkflowDto> {
    await this.unitOfWork.run(async (m) => {
      const old = await this.repository.findOwned(scopeOf(me), body.user_workflow_id, m, true);
      if (!old) throw userWorkflowNotFound();
      const changes: UserWorkflowChanges = {};
      if (body.name !== undefined) changes.name = body.name.trim();
      if (body.description !== undefined && body.description !== null)
        changes.description = body.description.trim();
      if (body.values !== undefined) {
        // The fields are those of its steps' prompts (kept with the steps, so a changed workflow does not matter).
        const steps = await this.repository.stepsOf([body.user_workflow_id], m);
        const names = [...new Set(steps.flatMap((s) => placeholders(s.content)))];
        changes.values = requireValues(names, parseValues(body.values));
      }
      await this.repository.update(m, body.user_workflow_id, changes);
    });
    return this.get(me, body.user_workflow_id);
  }

  /**
   * A workflow runs only templates its runner could see (else their hidden prompts would reach a customer
   * through the workflow): 403 template_forbidden naming none of them.
   */
  private async checkTemplatesVisible(me: Principal, steps: { template_id: number }[]): Promise<void> {
    for (const step of steps) {
      try {
        await this.templates.get(me, step.template_id);
      } catch (err) {
        if (err instanceof DomainError && err.status === 404)
          throw forbidden(
            'This workflow uses templates you do not have access to, so you cannot run it.',
            'template_forbidden',
          );
        throw err;
      }
    }
  }

  /**
   * Deletes the run and its conversations through ConversationsService, which also stops any step still
   * generating (on whichever instance runs it) and deletes the files attached to those conversations.
   */
  async remove(me: Principal, userWorkflowId: number): Promise<void> {
    const removed = await this.unitOfWork.run(async (m) => {
      if (!(await this.repository.findOwned(scopeOf(me), userWorkflowId, m, true)))
        throw userWorkflowNotFound();
      const steps = await this.repository.stepsOf([userWorkflowId], m);
      const conversations = await this.conversations.removeMany(
        me,
        steps.map((s) => s.conversation_id),
        m,
      );
      await this.repository.delete(m, userWorkflowId);
      return conversations;
    });
    await this.conversations.removeDeleted(removed);
  }

  /**
   * Generates one step again with the current values: its conversation's messages are cleared first. 409 while
   * the step is waiting or generating; 412 without access.
   */
  async regenerate(me: Principal, userWorkflowId: number, conversationId: number): Promise<UserWorkflowDto> {
    const step = await this.repository.findOwnedStep(scopeOf(me), userWorkflowId, conversationId);
    if (!step) throw userWorkflowNotFound();
    await this.checkAccess(me);
    const claimed = await this.unitOfWork.run(async (m) => {
      // Claiming the step and clearing its conversation together: two regenerations cannot both start.
      if (!(await this.repository.claimForRegeneration(m, step.user_workflow_template_id))) return false;
      await this.messages.clearConversation(step.conversation_id, m);
      return true;
    });
    if (!claimed) throw conflict('This step is still being generated.', 'step_generating');
    this.runner.emit(me.user_id, step, 'pending');
    this.runner.run(me, [step.user_workflow_template_id]);
    return this.get(me, userWorkflowId);
  }

  /** The rule that gates starting a conversation (staff need no words), checked before anything is created. */
  private async checkAccess(me: Principal): Promise<void> {
    await this.conversations.checkAccess(me);
  }

  /** The runs with their workflow's summary and their steps, each with its template's name and description. */
  private async withSteps(rows: UserWorkflow[]): Promise<UserWorkflowDto[]> {
    if (!rows.length) return [];
    const steps = await this.repository.stepsOf(rows.map((r) => r.user_workflow_id));
    const [workflows, templates] = await Promise.all([
      this.workflows.summaries(rows.flatMap((r) => (r.workflow_id === null ? [] : [r.workflow_id]))),
      this.templates.prompts([
        ...new Set(steps.flatMap((s) => (s.template_id === null ? [] : [s.template_id]))),
      ]),
    ]);
    return rows.map((row) => ({
      user_workflow_id: row.user_workflow_id,
      name: row.name,
      description: row.description,
      workflow_id: row.workflow_id,
      workflow: (row.workflow_id !== null && workflows.get(row.workflow_id)) || null,
      values: row.values,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      user_workflow_templates: steps
        .filter((s) => s.user_workflow_id === row.user_workflow_id)
        .map((s) =>
          toStepDto(
            s,
            templates.find((t) => t.template_id === s.template_id),
          ),
        ),
    }));
  }

  /** Undoes a start that failed half-way; a failure here must not hide the original error. */
  private async dropConversations(me: Principal, conversationIds: number[]): Promise<void> {
    for (const id of conversationIds)
      await this.conversations
        .remove(me, id)
        .catch((err: Error) => this.logger.warn(`Could not delete conversation ${id}: ${err.message}`));
  }
}

function toStepDto(
  step: UserWorkflowStep,
  template: { template_id: number; name: string; description: string } | undefined,
): UserWorkflowTemplateDto {
  return {
    user_workflow_template_id: step.user_workflow_template_id,
    order: step.order,
    conversation_id: step.conversation_id,
    template: template
      ? { template_id: template.template_id, name: template.name, description: template.description }
      : null,
    status: step.status,
    error: step.error,
  };
}
