/** The workflow routes, mounted by App.tsx at workflows/* and user_workflows/*. */
import { NotFound } from '@avatar-studio/shared';
import { Route, Routes } from 'react-router-dom';
import { GeneratedContentPage } from './GeneratedContentPage';
import { UserWorkflowPage } from './UserWorkflowPage';
import { UserWorkflowsPage } from './UserWorkflowsPage';
import { WorkflowPage } from './WorkflowPage';
import { WorkflowsPage } from './WorkflowsPage';

/** /workflows and /workflows/{workflow_id}. */
export function WorkflowsRoutes() {
  return (
    <Routes>
      <Route index element={<WorkflowsPage />} />
      <Route path=":workflow_id" element={<WorkflowPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

/** /user_workflows, /user_workflows/{user_workflow_id} and its generated content views. */
export function UserWorkflowsRoutes() {
  return (
    <Routes>
      <Route index element={<UserWorkflowsPage />} />
      <Route path=":user_workflow_id" element={<UserWorkflowPage />} />
      <Route path=":user_workflow_id/conversation/:conversation_id" element={<GeneratedContentPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
