/** Types and pure helpers of the workflow screens, following the workflows API contract. */
import { ApiError, type ApiSchemas, type WorkflowStepPayload } from '@avatar-studio/shared';

export type Workflow = ApiSchemas['WorkflowDto'];
export type WorkflowField = Workflow['fields'][number];
export type WorkflowStep = Workflow['templates'][number];
export type WorkflowListItem = ApiSchemas['WorkflowDto'];
export type UserWorkflow = ApiSchemas['UserWorkflowDto'];
export type UserWorkflowStep = UserWorkflow['user_workflow_templates'][number];
export type StepStatus = UserWorkflowStep['status'];
export type Message = ApiSchemas['MessageDto'];

/** Query keys: the workflows catalogue and the caller's own user workflows. */
export const WORKFLOWS_KEY = 'workflows';
export const USER_WORKFLOWS_KEY = 'user_workflows';

/** A workflow card shows up to 3 tags, like a conversation card. */
export const CARD_TAGS = 3;

/** The socket `message` payload of a step status change (typed in the shared event map). */
export type StepStatusEvent = WorkflowStepPayload;

const STATUSES: readonly StepStatus[] = ['pending', 'generating', 'done', 'failed'];

/** The `message` event is shared with other features: answers the payload only when it is a step status change. */
export function readStepStatusEvent(payload: Record<string, unknown>): StepStatusEvent | null {
  const user_workflow_id = Number(payload.user_workflow_id);
  const user_workflow_template_id = Number(payload.user_workflow_template_id);
  const conversation_id = Number(payload.conversation_id);
  const status = payload.status as StepStatus;
  if (!Number.isInteger(user_workflow_id) || !Number.isInteger(user_workflow_template_id)) return null;
  if (!STATUSES.includes(status)) return null;
  return { user_workflow_id, user_workflow_template_id, conversation_id, status };
}

/** The user workflow with one step's status replaced (the event carries no error text; a refetch brings it). */
export function applyStepStatus(userWorkflow: UserWorkflow, event: StepStatusEvent): UserWorkflow {
  if (userWorkflow.user_workflow_id !== event.user_workflow_id) return userWorkflow;
  return {
    ...userWorkflow,
    user_workflow_templates: userWorkflow.user_workflow_templates.map((step) =>
      step.user_workflow_template_id === event.user_workflow_template_id
        ? { ...step, status: event.status, ...(event.status === 'failed' ? {} : { error: null }) }
        : step,
    ),
  };
}

export function isBusy(status: StepStatus): boolean {
  return status === 'pending' || status === 'generating';
}

export function stepsDone(userWorkflow: Pick<UserWorkflow, 'user_workflow_templates'>): number {
  return userWorkflow.user_workflow_templates.filter((s) => s.status === 'done').length;
}

export function sortedSteps<T extends { order: number }>(steps: readonly T[]): T[] {
  return [...steps].sort((a, b) => a.order - b.order);
}

export function splitTags(tags: string | null | undefined): string[] {
  return (tags ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/** A select's first option is its default value; other fields start with their `value`. */
export function initialValues(
  fields: readonly WorkflowField[],
  current: Record<string, string> = {},
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of fields) {
    values[field.name] =
      current[field.name] ?? (field.type === 'select' ? (field.options[0] ?? '') : (field.value ?? ''));
  }
  return values;
}

/** Names of the fields left empty (every value is required). */
export function emptyFields(values: Record<string, string>): string[] {
  return Object.entries(values)
    .filter(([, value]) => value.trim() === '')
    .map(([name]) => name);
}

/** Messages merged without duplicates (the later copy wins) and sorted by creation time. */
export function mergeMessages(...lists: Message[][]): Message[] {
  const byId = new Map<number, Message>();
  for (const list of lists) for (const m of list) byId.set(m.message_id, m);
  return [...byId.values()].sort(
    (a, b) =>
      new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime() || a.message_id - b.message_id,
  );
}

/** A 412 means paid access is needed; the screen goes to /sorry. */
export function isNoAccess(error: unknown): boolean {
  return error instanceof ApiError && error.status === 412;
}

/** 4xx answers (missing, not yours, bad id) are final: no retries before showing "not found". */
export function retryServerErrors(count: number, error: unknown): boolean {
  return !(error instanceof ApiError && error.status < 500) && count < 3;
}
