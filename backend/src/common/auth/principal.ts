import type { WidgetVisitor } from './visitor-token';
import type { OrgRole, StaffRole } from './permissions';

/** The organization a request is scoped to (`?organization_id=`), with the caller's role there. */
export interface OrgScope {
  organization_id: number;
  role: OrgRole;
  /** False when a staff admin acts on an organization they are not a member of. */
  member: boolean;
}

/** Who is calling. Set by the AuthGuard on every authenticated request. */
export interface Principal {
  user_id: number;
  email: string;
  session_id: string | null;
  via: 'token' | 'api_key';
  staffRole: StaffRole | null;
  org: OrgScope | null;
  /** The staff admin viewing this customer's account (a session opened from the back office); absent otherwise. */
  impersonator?: { user_id: number; email: string } | null;
  /** A staff admin who must use two-factor codes and has not enrolled: only enrolment is open to them. */
  twoFactorEnrolmentRequired?: boolean;
}

export interface AuthenticatedRequest {
  principal?: Principal;
  /** A chat widget visitor, on the widget's visitor routes only. */
  visitor?: WidgetVisitor;
}
