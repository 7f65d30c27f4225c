import { Foundation1763780000000 } from './1763780000000-Foundation';
import { Words1763790000000 } from './1763790000000-Words';
import { Conversations1763800000000 } from './1763800000000-Conversations';
import { Messages1763810000000 } from './1763810000000-Messages';
import { Templates1763820000000 } from './1763820000000-Templates';
import { Workflows1763830000000 } from './1763830000000-Workflows';
import { ConversationFiles1763840000000 } from './1763840000000-ConversationFiles';
import { Documents1763850000000 } from './1763850000000-Documents';
import { MessageSources1763870000000 } from './1763870000000-MessageSources';
import { ConversationListIndexes1763880000000 } from './1763880000000-ConversationListIndexes';
import { ConversationNameSearch1763890000000 } from './1763890000000-ConversationNameSearch';
import { ScopeIndexes1763900000000 } from './1763900000000-ScopeIndexes';
import { MessageStatus1764100000000 } from './1764100000000-MessageStatus';
import { WordReservations1764100000001 } from './1764100000001-WordReservations';
import { AuthHardening1764200000000 } from './1764200000000-AuthHardening';
import { AuditAndInvitations1764300000000 } from './1764300000000-AuditAndInvitations';
import { MailSecrets1764500000000 } from './1764500000000-MailSecrets';
import { Billing1764620000000 } from './1764620000000-Billing';
import { Payments1764630000000 } from './1764630000000-Payments';
import { Avatars1764640000000 } from './1764640000000-Avatars';
import { AnalyticsIndexes1764670000000 } from './1764670000000-AnalyticsIndexes';
import { AnalyticsActivityIndexes1795750000000 } from './1795750000000-AnalyticsActivityIndexes';
import { CustomerSearchTrigrams1795752288428 } from './1795752288428-CustomerSearchTrigrams';
import { AnalyticsDailyFigures1795760000000 } from './1795760000000-AnalyticsDailyFigures';
import { AvatarChunkVectors1795760000001 } from './1795760000001-AvatarChunkVectors';
import { PrincipalChangeNotifications1795770000000 } from './1795770000000-PrincipalChangeNotifications';
import { FreeTrialCoveringIndexes1795770000001 } from './1795770000001-FreeTrialCoveringIndexes';
import { AvatarUsageCoveringIndex1795780000000 } from './1795780000000-AvatarUsageCoveringIndex';
import { CustomerSearchOneIndex1795780000001 } from './1795780000001-CustomerSearchOneIndex';
import { AvatarUsagePreviousConversation1795790000000 } from './1795790000000-AvatarUsagePreviousConversation';
import { AnalyticsSpansOneUpsert1795800000000 } from './1795800000000-AnalyticsSpansOneUpsert';
import { DocumentEditor1764680000000 } from './1764680000000-DocumentEditor';
import { GeneratedIdeas1764681000000 } from './1764681000000-GeneratedIdeas';
import { Tutorials1764682000000 } from './1764682000000-Tutorials';
import { CampaignsAndGroups1764690000000 } from './1764690000000-CampaignsAndGroups';
import { TotpLastStep1764700000000 } from './1764700000000-TotpLastStep';
import { Widgets1795709477082 } from './1795709477082-Widgets';
import { TrainingsAndOutputs1795709512066 } from './1795709512066-TrainingsAndOutputs';
import { StarterContent1795709635733 } from './1795709635733-StarterContent';
import { SuperFetchMessages1795746000001 } from './1795746000001-SuperFetchMessages';
import { RenewalRefunds1795709670287 } from './1795709670287-RenewalRefunds';
import { ReservationUserCap1795745995133 } from './1795745995133-ReservationUserCap';
import { DefaultAvatar1795746000000 } from './1795746000000-DefaultAvatar';
import { CustomerDeletionAndImpersonation1795746100000 } from './1795746100000-CustomerDeletionAndImpersonation';

/** Every migration, oldest first. Add new ones at the end; never edit one that has shipped. */
export const migrations = [
  Foundation1763780000000,
  Words1763790000000,
  Conversations1763800000000,
  Messages1763810000000,
  Templates1763820000000,
  Workflows1763830000000,
  ConversationFiles1763840000000,
  Documents1763850000000,
  MessageSources1763870000000,
  ConversationListIndexes1763880000000,
  ConversationNameSearch1763890000000,
  ScopeIndexes1763900000000,
  MessageStatus1764100000000,
  WordReservations1764100000001,
  AuthHardening1764200000000,
  AuditAndInvitations1764300000000,
  MailSecrets1764500000000,
  Billing1764620000000,
  Payments1764630000000,
  Avatars1764640000000,
  AnalyticsIndexes1764670000000,
  DocumentEditor1764680000000,
  GeneratedIdeas1764681000000,
  Tutorials1764682000000,
  CampaignsAndGroups1764690000000,
  TotpLastStep1764700000000,
  Widgets1795709477082,
  TrainingsAndOutputs1795709512066,
  StarterContent1795709635733,
  RenewalRefunds1795709670287,
  ReservationUserCap1795745995133,
  DefaultAvatar1795746000000,
  SuperFetchMessages1795746000001,
  CustomerDeletionAndImpersonation1795746100000,
  AnalyticsActivityIndexes1795750000000,
  CustomerSearchTrigrams1795752288428,
  AnalyticsDailyFigures1795760000000,
  AvatarChunkVectors1795760000001,
  PrincipalChangeNotifications1795770000000,
  FreeTrialCoveringIndexes1795770000001,
  AvatarUsageCoveringIndex1795780000000,
  CustomerSearchOneIndex1795780000001,
  AvatarUsagePreviousConversation1795790000000,
  AnalyticsSpansOneUpsert1795800000000,
];
