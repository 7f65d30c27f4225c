/**
 * The security-relevant staff actions the audit log records (GET /api/audit-events). A new action is added here
 * first, so the back office can name and filter it.
 */
export const AUDIT_ACTIONS = [
  /** Staff made a password reset link to hand over (the user is told by email). */
  'user.reset_link_created',
  /** Staff had a password reset email sent to the user. */
  'user.reset_email_sent',
  /** A one-time sign-in token was issued for a customer's account (staff opening it as the customer). */
  'user.sign_in_token_issued',
  /** Staff created a customer account in the back office (a password recovery email follows). */
  'customer.created',
  /** Staff changed a customer's profile fields; details hold which fields. */
  'customer.updated',
  /** Staff deleted a customer: their data went, their purchases and invoices stay anonymised (details: counts). */
  'customer.deleted',
  /** A staff admin asked for a one-time code to open a customer's account. */
  'customer.impersonation_started',
  /** The code was exchanged: a short session as the customer opened, for the admin who asked. */
  'customer.impersonation_opened',
  /** A change made in a customer's account by the admin viewing it (details: method and route). */
  'customer.impersonation_action',
  /** Staff gave a user words or unlimited access. */
  'words.granted',
  /** A user was made staff. */
  'staff.created',
  /** A staff member's role changed. */
  'staff.role_changed',
  /** A user stopped being staff. */
  'staff.removed',
  /** Secret app config values (keys, webhooks) were changed; which keys, never their values. */
  'app_config.secrets_changed',
  /** Staff who are not its Admin changed a member's role in an organization. */
  'organization.member_role_changed',
  /** Staff who are not its Admin removed a member from an organization. */
  'organization.member_removed',
  /** Staff who are not its Admin invited someone to an organization. */
  'organization.member_invited',
  /** A product was created or changed. */
  'product.saved',
  /** A discount was created or changed. */
  'discount.saved',
  /** A purchase was created by staff (give access, back office). */
  'purchase.created',
  /** A purchase's status changed (by staff, by its owner cancelling, or by a payment); details hold from, to, reason. */
  'purchase.status_changed',
  /** Staff changed a purchase's other fields. */
  'purchase.updated',
  /**
   * Money of a purchase was given back (a refund or a lost dispute, of its first payment or of a renewal); details
   * hold the amount, the invoice of a renewal, the reason and the provider's reference.
   */
  'purchase.refunded',
  /**
   * A revoked purchase's subscription was ended at its provider (Stripe, PayPal); details hold the outcome (stopped,
   * already_ended, or failed after every retry) and the staff member who revoked it.
   */
  'purchase.subscription_stopped',
  /** An invoice was created by staff. */
  'invoice.created',
  /** An invoice's status changed; details hold from, to. */
  'invoice.status_changed',
  /** Staff changed an invoice's other fields. */
  'invoice.updated',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === 'string' && (AUDIT_ACTIONS as readonly string[]).includes(value);
}

/** The audit log answers at most this many events per page. */
export const AUDIT_PAGE_MAX = 100;
