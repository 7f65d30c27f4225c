import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ownerScope } from '../../common/auth/owner-scope';
import type { Principal } from '../../common/auth/principal';
import { badInput, conflict, DomainError, forbidden, notFound } from '../../common/errors/domain-error';
import { likePattern, selectPage, toPage } from '../../common/http/pagination';
import { MAX_NAME_LENGTH as MAX_CONVERSATION_NAME } from '../conversations/conversation-rules';
import { ConversationsService } from '../conversations/conversations.service';
import { cancelKeys } from '../generation/generation-bus';
import { GenerationService } from '../generation/generation.service';
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
import { UserWorkflowRunner } from './user-workflow-runner';
import { parseValues, requireValues, type StepStatus } from './user-workflow-rules';

const PAGE_SIZE = 24;
const COLUMNS = `uw.user_workflow_id, uw.name, uw.description, uw.workflow_id,
  CASE WHEN w.workflow_id IS NULL THEN NULL
       ELSE json_build_object('workflow_id', w.workflow_id, 'name', w.name, 'description', w.description,
                              'tags', w.tags) END AS workflow,
  uw."values", uw."createdAt", uw."updatedAt"`;
const FROM = `user_workflows uw LEFT JOIN workflows w ON w.workflow_id = uw.workflow_id`;

type UserWorkflowRow = Omit<UserWorkflowDto, 'user_workflow_templates'>;
interface StepRow extends UserWorkflowTemplateDto {
  user_workflow_id: number;
}

const userWorkflowNotFound = () => notFound('User workflow', 'user_workflow_not_found');

/** The caller's user workflows in the current scope (see ownerScope), on the `uw` alias. */
const scopeWhere = (me: Principal, first: number) => ownerScope(me, 'uw', first);

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
    private readonly db: DataSource,
    private readonly workflows: WorkflowsService,
    private readonly conversations: ConversationsService,
    private readonly runner: UserWorkflowRunner,
    private readonly templates: TemplatesService,
    private readonly generation: GenerationService,
  ) {}

  async list(me: Principal, query: UserWorkflowListQuery): Promise<UserWorkflowPageResponse> {
    const { page, limit, skip } = toPage(query, PAGE_SIZE);
    const scope = scopeWhere(me, 1);
    const params = [...scope.params];
    const where = [scope.sql];
    const text = query.query?.trim();
    if (text) {
      params.push(likePattern(text));
      where.push(`uw.name ILIKE $${params.length}`);
    }
    const whereSql = where.join(' AND ');
    const { rows, total } = await selectPage<UserWorkflowRow>(
      this.db,
      {
        columns: COLUMNS,
        from: `${FROM} WHERE ${whereSql}`,
        countFrom: `user_workflows uw WHERE ${whereSql}`,
        orderBy: `uw."createdAt" DESC, uw.user_workflow_id DESC`,
        params,
      },
      { page, limit, skip },
    );
    return { user_workflows: await this.withSteps(rows), total, page, limit };
  }

  async get(me: Principal, userWorkflowId: number): Promise<UserWorkflowDto> {
    const scope = scopeWhere(me, 2);
    const [row] = (await this.db.query(
      `SELECT ${COLUMNS} FROM ${FROM} WHERE uw.user_workflow_id = $1 AND ${scope.sql}`,
      [userWorkflowId, ...scope.params],
    )) as UserWorkflowRow[];
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
      started = await this.db.transaction(async (m) => {
        const [{ user_workflow_id }] = (await m.query(
          `INSERT INTO user_workflows (user_id, organization_id, workflow_id, name, description, "values")
           VALUES ($1, $2, $3, $4, $5, $6::jsonb) RETURNING user_workflow_id`,
          [
            me.user_id,
            me.org?.organization_id ?? null,
            workflow.workflow_id,
            body.name?.trim() || workflow.name,
            body.description === undefined ? workflow.description : body.description.trim(),
            JSON.stringify(values),
          ],
        )) as { user_workflow_id: number }[];
        const inserted = (await m.query(
          // A template deleted meanwhile leaves its step without one (the prompt is kept with the step).
          `INSERT INTO user_workflow_templates (user_workflow_id, template_id, conversation_id, "order", content)
           SELECT $1, t.template_id, s.conversation_id, s.ord, s.content
             FROM unnest($2::int[], $3::int[], $4::text[]) WITH ORDINALITY AS s(template_id, conversation_id, content, ord)
             LEFT JOIN templates t ON t.template_id = s.template_id
           RETURNING user_workflow_template_id, "order"`,
          [user_workflow_id, steps.map((s) => s.template_id), conversationIds, steps.map((s) => s.content)],
        )) as { user_workflow_template_id: number; order: number }[];
        return {
          id: user_workflow_id,
          stepIds: inserted.sort((a, b) => a.order - b.order).map((s) => s.user_workflow_template_id),
        };
      });
    } catch (err) {
      await this.dropConversations(me, conversationIds);
      throw err;
    }
    this.runner.run(me, started.stepIds);
    return this.get(me, started.id);
  }

  async update(me: Principal, body: UpdateUserWorkflowBody): Promise<UserWorkflowDto> {
    await this.db.transaction(async (m) => {
      const scope = scopeWhere(me, 2);
      const [old] = (await m.query(
        `SELECT uw.user_workflow_id FROM user_workflows uw WHERE uw.user_workflow_id = $1 AND ${scope.sql} FOR UPDATE`,
        [body.user_workflow_id, ...scope.params],
      )) as { user_workflow_id: number }[];
      if (!old) throw userWorkflowNotFound();
      const sets: string[] = [`"updatedAt" = now()`];
      const params: unknown[] = [body.user_workflow_id];
      const set = (column: string, value: unknown) => {
        params.push(value);
        sets.push(`${column} = $${params.length}`);
      };
      if (body.name !== undefined) set('name', body.name.trim());
      if (body.description !== undefined && body.description !== null)
        set('description', body.description.trim());
      if (body.values !== undefined) {
        // The fields are those of its steps' prompts (kept with the steps, so a changed workflow does not matter).
        const steps = (await m.query(
          `SELECT content FROM user_workflow_templates WHERE user_workflow_id = $1 ORDER BY "order"`,
          [body.user_workflow_id],
        )) as { content: string }[];
        const names = [...new Set(steps.flatMap((s) => placeholders(s.content)))];
        params.push(JSON.stringify(requireValues(names, parseValues(body.values))));
        sets.push(`"values" = $${params.length}::jsonb`);
      }
      await m.query(`UPDATE user_workflows SET ${sets.join(', ')} WHERE user_workflow_id = $1`, params);
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

  /** Deleting its conversations also stops any step still generating, on whichever instance runs it. */
  async remove(me: Principal, userWorkflowId: number): Promise<void> {
    const deleted = await this.db.transaction(async (m) => {
      const scope = scopeWhere(me, 2);
      const [row] = (await m.query(
        `SELECT uw.user_workflow_id FROM user_workflows uw WHERE uw.user_workflow_id = $1 AND ${scope.sql} FOR UPDATE`,
        [userWorkflowId, ...scope.params],
      )) as { user_workflow_id: number }[];
      if (!row) throw userWorkflowNotFound();
      const [conversations] = (await m.query(
        `DELETE FROM conversations WHERE conversation_id IN
           (SELECT conversation_id FROM user_workflow_templates WHERE user_workflow_id = $1)
         RETURNING conversation_id`,
        [userWorkflowId],
      )) as [{ conversation_id: number }[], number];
      await m.query(`DELETE FROM user_workflows WHERE user_workflow_id = $1`, [userWorkflowId]);
      return conversations;
    });
    for (const { conversation_id } of deleted)
      this.generation.cancel(cancelKeys.conversation(conversation_id));
  }

  /**
   * Generates one step again with the current values: its conversation's messages are cleared first. 409 while
   * the step is waiting or generating; 412 without access.
   */
  async regenerate(me: Principal, userWorkflowId: number, conversationId: number): Promise<UserWorkflowDto> {
    const scope = scopeWhere(me, 3);
    const [step] = (await this.db.query(
      `SELECT s.user_workflow_template_id, s.user_workflow_id, s.conversation_id, s.status
         FROM user_workflow_templates s JOIN user_workflows uw ON uw.user_workflow_id = s.user_workflow_id
        WHERE s.user_workflow_id = $1 AND s.conversation_id = $2 AND ${scope.sql}`,
      [userWorkflowId, conversationId, ...scope.params],
    )) as {
      user_workflow_template_id: number;
      user_workflow_id: number;
      conversation_id: number;
      status: StepStatus;
    }[];
    if (!step) throw userWorkflowNotFound();
    await this.checkAccess(me);
    const claimed = await this.db.transaction(async (m) => {
      // Claiming the step and clearing its conversation together: two regenerations cannot both start.
      const [rows] = (await m.query(
        `UPDATE user_workflow_templates SET status = 'pending', error = NULL, "updatedAt" = now()
          WHERE user_workflow_template_id = $1 AND status IN ('done', 'failed') RETURNING user_workflow_template_id`,
        [step.user_workflow_template_id],
      )) as [unknown[], number];
      if (!rows.length) return false;
      await m.query(`DELETE FROM messages WHERE conversation_id = $1`, [step.conversation_id]);
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

  private async withSteps(rows: UserWorkflowRow[]): Promise<UserWorkflowDto[]> {
    if (!rows.length) return [];
    const steps = (await this.db.query(
      `SELECT s.user_workflow_id, s.user_workflow_template_id, s."order", s.conversation_id,
              CASE WHEN t.template_id IS NULL THEN NULL
                   ELSE json_build_object('template_id', t.template_id, 'name', t.name,
                                          'description', t.description) END AS template,
              s.status, s.error
         FROM user_workflow_templates s LEFT JOIN templates t ON t.template_id = s.template_id
        WHERE s.user_workflow_id = ANY($1::int[])
        ORDER BY s.user_workflow_id, s."order"`,
      [rows.map((r) => r.user_workflow_id)],
    )) as StepRow[];
    return rows.map((row) => ({
      ...row,
      user_workflow_templates: steps
        .filter((s) => s.user_workflow_id === row.user_workflow_id)
        .map(({ user_workflow_id: _, ...step }) => step),
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
