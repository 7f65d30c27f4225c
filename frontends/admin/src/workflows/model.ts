/** Types of the workflow authoring screens, from the generated API schema. */
import type { ApiSchemas } from '@avatar-studio/shared';

export type Workflow = ApiSchemas['WorkflowDto'];
export type Template = ApiSchemas['TemplateDto'];
