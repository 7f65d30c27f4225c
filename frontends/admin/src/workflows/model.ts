/** Types of the workflow authoring screens, from the generated API schema. */
import type { ApiPaths } from '@avatar-studio/shared';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type Workflow = Json<ApiPaths['/api/workflows/{workflow_id}']['get']['responses'][200]>['workflow'];
export type Template = Json<ApiPaths['/api/templates']['get']['responses'][200]>['templates'][number];
