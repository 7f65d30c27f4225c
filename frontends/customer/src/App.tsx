/**
 * The customer remote: exposed as 'customer/App' and mounted by the shell under "/" (everything the admin and org remotes do not own).
 * Route paths here are relative to that mount point. Its menu entries and mounts are in manifest.ts. See frontends/shared/src/remote.ts.
 */
import { NotFound, PageLoader, registerTranslations } from '@avatar-studio/shared';
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { en, es } from './i18n';

registerTranslations('customer', { en, es });

const SettingsPage = lazy(() => import('./settings/SettingsPage').then((m) => ({ default: m.SettingsPage })));
const ProfilePage = lazy(() => import('./profile/ProfilePage').then((m) => ({ default: m.ProfilePage })));
const HomePage = lazy(() => import('./access').then((m) => ({ default: m.HomePage })));
const ConversationsPage = lazy(() =>
  import('./conversations/ConversationsPage').then((m) => ({ default: m.ConversationsPage })),
);
const ConversationPage = lazy(() =>
  import('./conversations/ConversationPage').then((m) => ({ default: m.ConversationPage })),
);
const OutOfCreditsNotice = lazy(() => import('./access').then((m) => ({ default: m.OutOfCreditsNotice })));
const WorkflowsRoutes = lazy(() =>
  import('./workflows/routes').then((m) => ({ default: m.WorkflowsRoutes })),
);
const UserWorkflowsRoutes = lazy(() =>
  import('./workflows/routes').then((m) => ({ default: m.UserWorkflowsRoutes })),
);
const TemplatesPage = lazy(() =>
  import('./templates/TemplatesPage').then((m) => ({ default: m.TemplatesPage })),
);
const TemplateFormPage = lazy(() =>
  import('./templates/TemplateFormPage').then((m) => ({ default: m.TemplateFormPage })),
);
const AvatarsPage = lazy(() => import('./avatars/AvatarsPage').then((m) => ({ default: m.AvatarsPage })));
const AvatarPage = lazy(() => import('./avatars/AvatarPage').then((m) => ({ default: m.AvatarPage })));
const ApplyAvatarPage = lazy(() =>
  import('./avatars/ApplyAvatarPage').then((m) => ({ default: m.ApplyAvatarPage })),
);
const TemplateApplyPage = lazy(() =>
  import('./templates/TemplateApplyPage').then((m) => ({ default: m.TemplateApplyPage })),
);
const DocumentsPage = lazy(() =>
  import('./documents/DocumentsPage').then((m) => ({ default: m.DocumentsPage })),
);
const DocumentEditorPage = lazy(() =>
  import('./documents/DocumentEditorPage').then((m) => ({ default: m.DocumentEditorPage })),
);
const CampaignDocumentPage = lazy(() =>
  import('./documents/DocumentEditorPage').then((m) => ({ default: m.CampaignDocumentPage })),
);
const IdeasPage = lazy(() => import('./ideas/IdeasPage').then((m) => ({ default: m.IdeasPage })));
const SuperFetchPage = lazy(() =>
  import('./super-fetch/SuperFetchPage').then((m) => ({ default: m.SuperFetchPage })),
);
const TutorialsPage = lazy(() =>
  import('./tutorials/TutorialsPage').then((m) => ({ default: m.TutorialsPage })),
);
const TutorialPlayerPage = lazy(() =>
  import('./tutorials/TutorialPlayerPage').then((m) => ({ default: m.TutorialPlayerPage })),
);

const ChatWidgetGeneratorPage = lazy(() =>
  import('./chat-widget/ChatWidgetGeneratorPage').then((m) => ({ default: m.ChatWidgetGeneratorPage })),
);

const PricingPage = lazy(() => import('./billing/PricingPage').then((m) => ({ default: m.PricingPage })));
const CheckoutPage = lazy(() => import('./billing/CheckoutPage').then((m) => ({ default: m.CheckoutPage })));
const ThankYouPage = lazy(() => import('./billing/ThankYouPage').then((m) => ({ default: m.ThankYouPage })));
const BillingPage = lazy(() => import('./billing/BillingPage').then((m) => ({ default: m.BillingPage })));
const WelcomePage = lazy(() => import('./welcome/WelcomePage').then((m) => ({ default: m.WelcomePage })));

export default function App() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Routes>
        {/* Screens: <Route path="..." element={<Screen />} />, each screen React.lazy-loaded. */}
        <Route index element={<HomePage />} />
        <Route path="conversations" element={<ConversationsPage />} />
        <Route path="conversations/:conversation_id" element={<ConversationPage />} />
        <Route path="conversation/tags" element={<ConversationsPage initialView="tags" />} />
        <Route path="conversation/tags/:tag" element={<ConversationsPage />} />
        <Route path="workflows/*" element={<WorkflowsRoutes />} />
        <Route path="templates" element={<TemplatesPage tab="all" />} />
        <Route path="templates/types" element={<TemplatesPage tab="type" />} />
        <Route path="templates/types/:type" element={<TemplatesPage tab="type" />} />
        <Route path="templates/tags" element={<TemplatesPage tab="tags" />} />
        <Route path="templates/tags/:tag" element={<TemplatesPage tab="tags" />} />
        <Route path="templates/create-template" element={<TemplateFormPage />} />
        <Route path="templates/edit-template/:template_id" element={<TemplateFormPage />} />
        <Route
          path="templates/apply-template/:template_id/:conversation_id"
          element={<TemplateApplyPage />}
        />
        <Route path="templates/apply-avatar/:template_id/:avatar_id" element={<ApplyAvatarPage />} />
        <Route path="avatars" element={<AvatarsPage />} />
        <Route path="avatars/community" element={<AvatarsPage />} />
        <Route path="avatars/:avatar_id/*" element={<AvatarPage />} />
        <Route path="user_workflows/*" element={<UserWorkflowsRoutes />} />
        <Route path="documents" element={<DocumentsPage />} />
        <Route path="documents/:document_id" element={<DocumentEditorPage />} />
        <Route path="campaign/:campaign_id/documents/:document_id" element={<CampaignDocumentPage />} />
        <Route path="topics" element={<IdeasPage kind="topics" />} />
        <Route path="hashtags" element={<IdeasPage kind="hashtags" />} />
        <Route path="super-fetch" element={<SuperFetchPage />} />
        <Route path="tutorials" element={<TutorialsPage />} />
        <Route path="tutorials/:tutorial_id" element={<TutorialPlayerPage />} />
        <Route path="chat-widget-generator" element={<ChatWidgetGeneratorPage />} />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="pricing" element={<PricingPage />} />
        <Route path="checkout/:product_id" element={<CheckoutPage />} />
        <Route path="thankyou/:purchase_id" element={<ThankYouPage />} />
        <Route path="billing" element={<BillingPage />} />
        <Route path="profile" element={<ProfilePage />} />
        {/* The out-of-credits notice; /sorry is where a 412 (needs paid access) lands. */}
        <Route path="upgrade" element={<OutOfCreditsNotice />} />
        <Route path="sorry" element={<OutOfCreditsNotice />} />
        <Route path="welcome" element={<WelcomePage />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Suspense>
  );
}
