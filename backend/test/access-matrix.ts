/**
 * Who may call each route: the authorization matrix, as data. `access-matrix.e2e-spec.ts` calls every route of
 * the OpenAPI document as each principal below and compares the answer with the entry here.
 *
 * HOW TO ADD A ROUTE (the matrix test fails until every route of the OpenAPI document has an entry):
 * 1. Add a key `'METHOD /api/path/{param}'` exactly as the OpenAPI document spells it.
 * 2. Write `request`: the path params, query and body that make the call succeed for an allowed principal, from
 *    the fixtures `f` (ids of resources owned by `owner` in Personal scope, or by organization `org`).
 * 3. Name who succeeds in `allow` (any 2xx, or exactly `status` when given). Everyone else gets `deny` (default
 *    404 "not yours"; 403 for a role the route refuses), overridden per principal in `denyAs`. Anonymous gets 401
 *    unless the route is public (`public: true`, then `denyAs.anonymous` or `allow` says what it gets).
 * 4. When the call changes or removes what the next principal needs (a delete, a logout, a password reset), give
 *    `fresh`: it runs before each principal's call and returns the params that call uses (a new conversation, a
 *    new session, the caller's own conversation...); it is given the caller's account (its password, email...). `freshPrincipals: true` gives each principal a new account of the same kind (for routes that
 *    act on the caller's own account, such as deleting it).
 * 5. Add more than one case for a route (an array) to check it in another scope, e.g. an organization's template
 *    with `?organization_id=`.
 *
 * Principals: `owner` owns the Personal resources; `member`, `manager`, `orgAdmin` are Member, Manager and Admin of
 * organization `org` (where `orgAdmin` made the organization's template and `member` the organization's
 * conversation and document); `otherOrgAdmin` is Admin of another organization; `stranger` is a customer in no
 * organization; `staffManager` and `staffAdmin` are staff. Every customer has words, so generation is reached.
 * A staff admin acts in an organization they are not a member of only with the header `X-Staff-Scope-Confirm`
 * naming it (`confirm(f)`); organization-scoped cases send it, and one case checks the 403 without it.
 */

export const PRINCIPALS = [
  'anonymous',
  'owner',
  'stranger',
  'member',
  'manager',
  'orgAdmin',
  'otherOrgAdmin',
  'staffManager',
  'staffAdmin',
] as const;
export type PrincipalName = (typeof PRINCIPALS)[number];
export type SignedIn = Exclude<PrincipalName, 'anonymous'>;

export const SIGNED_IN: SignedIn[] = PRINCIPALS.filter((p): p is SignedIn => p !== 'anonymous');
export const STAFF: SignedIn[] = ['staffManager', 'staffAdmin'];
export const ORG_MEMBERS: SignedIn[] = ['member', 'manager', 'orgAdmin'];
export const CUSTOMERS: SignedIn[] = ['owner', 'stranger', 'member', 'manager', 'orgAdmin', 'otherOrgAdmin'];

/** Ids the fixtures created once, before the matrix runs. */
export interface Fixtures {
  /** A platform one-off product anyone may buy, and a monthly subscription product. */
  oneOffProduct: number;
  subscriptionProduct: number;
  /** A product at the platform's (fake) Stripe account. */
  stripeProduct: string;
  /** A platform subscription product (with a webhook URL), owner's active purchase of it, owner's pending invoice, a discount. */
  product: number;
  purchase: number;
  invoice: number;
  discount: number;
  /** A discount only the delete case uses. */
  spareDiscount: number;
  ownerUserId: number;
  org: number;
  orgName: string;
  orgSlug: string;
  otherOrg: number;
  /** The Member's membership in `org`. */
  memberMembership: number;
  memberUserId: number;
  /** manager's campaign in `org`, given to member, holding `campaignDocument` (manager's) and `orgTemplate`. */
  campaign: number;
  campaignDocument: number;
  /** A group of `org` holding member. */
  group: number;
  /** owner's Personal conversation, with one message and a finished user workflow. */
  conversation: number;
  message: number;
  document: number;
  /** owner's Personal template (not editable, prompt shown). */
  template: number;
  /** orgAdmin's template in `org` (not editable). */
  orgTemplate: number;
  /** member's conversation and document in `org`. */
  orgConversation: number;
  orgDocument: number;
  tutorial: number;
  /** A public template (staff admin's), the step of `workflow`. */
  publicTemplate: number;
  /** A staff workflow of one public template. */
  workflow: number;
  userWorkflow: number;
  /** The conversation of the user workflow's first step. */
  userWorkflowConversation: number;
  /** owner's private text file. */
  file: number;
  fileKey: string;
  /** owner's Personal avatar, its key and one editable file of it; a public avatar of the staff admin. */
  avatar: number;
  avatarKey: string;
  avatarFile: number;
  publicAvatar: number;
  /** The assistant_id of owner's Personal Super Fetch avatar. */
  superFetchAssistant: string;
  /** owner's Personal chat widget (of `avatar`), allowed on WIDGET_SITE, and its public key. */
  widget: number;
  widgetKey: string;
  /** owner's training of `avatar` (dataset `file`) and owner's output of it. */
  training: number;
  output: number;
  /** A staff member no principal is, for role changes. */
  staffTarget: number;
  ownerEmail: string;
  ownerPhone: string;
  /** An account any principal may sign in with (its password is `loginPassword`). */
  loginEmail: string;
  loginPassword: string;
}

/** Makes what a destructive call needs, before each principal's call. */
export interface FreshMakers {
  /** A new active subscription purchase of owner (of `f.product`). */
  subscription(): Promise<number>;
  /** A new Personal conversation of the principal (the owner's for anonymous). */
  conversationOf(who: PrincipalName): Promise<number>;
  /** A new Personal conversation of owner (with an attached text file when `withFile`). */
  conversation(withFile?: boolean): Promise<number>;
  message(): Promise<number>;
  document(): Promise<number>;
  /** A new tutorial. */
  tutorial(): Promise<number>;
  /** A new entry of owner's Personal topic or hashtag history. */
  idea(kind: 'topics' | 'hashtags'): Promise<number>;
  template(): Promise<number>;
  orgTemplate(): Promise<number>;
  workflow(): Promise<number>;
  userWorkflow(): Promise<number>;
  file(): Promise<number>;
  /** A new Personal chat widget of owner. */
  widget(): Promise<number>;
  /** A new Personal avatar of owner with one editable file. */
  avatar(): Promise<{ avatar_id: number; assistant_id: string; file_id: number }>;
  /** A new training of owner (of `avatar`); `learned` gives it a style guide and a rated output (for refine). */
  training(learned?: boolean): Promise<number>;
  /** A new output of owner (of `avatar`). */
  output(): Promise<number>;
  /** A new organization with member, manager and orgAdmin in their roles. */
  organization(): Promise<{ id: number; name: string }>;
  /** A new Member of `org` (no principal). */
  membership(): Promise<number>;
  /** A new staff manager (no principal). */
  staff(): Promise<number>;
  /** A new campaign of manager in `org`, optionally holding `orgTemplate` and given to member. */
  campaign(options?: { withTemplate?: boolean; givenToMember?: boolean }): Promise<number>;
  /** A new group of `org`, optionally holding member. */
  group(withMember?: boolean): Promise<number>;
  /** The email of a new customer account (prefix it for an address no account has). */
  email(): Promise<string>;
  refreshToken(): Promise<string>;
  resetToken(): Promise<string>;
  signInToken(): Promise<string>;
  /** A new customer account (no principal), for staff deleting or opening it. */
  customer(): Promise<number>;
  /** A staff admin's one-time code opening a new customer's account. */
  impersonationCode(): Promise<string>;
  /** A signed email verification token of a new unverified account. */
  verifyToken(): Promise<string>;
  /** Makes the caller's address unverified again. */
  unverify(caller: Caller): Promise<void>;
  /** An open invitation of `email` to a new organization (as Member), with its emailed token. */
  invitation(email: string): Promise<{ id: number; token: string }>;
  /** An interrupted answer in a new Personal conversation of owner. */
  interruptedAnswer(): Promise<number>;
  /** Starts two-factor enrolment as the caller (staff) and answers a current code of its pending secret. */
  twoFactorPending(caller: Caller): Promise<string>;
  /** Turns two-factor on for the caller directly and answers a current code ('000000' for no caller). */
  twoFactorOn(caller: Caller): Promise<string>;
  /** owner's SetupIntent, confirmed by (fake) Stripe.js with a card. */
  confirmedSetupIntent(): Promise<string>;
  /** A new saved card of owner. */
  paymentSource(): Promise<number>;
  /** A new completed purchase of owner (card checkout of `product`). */
  ownerPurchase(): Promise<number>;
  /** owner's PayPal order for `product`, approved by the buyer. */
  approvedPayPalOrder(): Promise<string>;
  /** owner's PayPal subscription to the plan made for a new purchase, approved. */
  approvedPayPalSubscription(): Promise<{ subscriptionID: string; purchase_id: number }>;
  /** A new Stripe event signed for the platform's webhook secret, or the matrix organization's. */
  stripeEvent(): Promise<Record<string, string>>;
  organizationStripeEvent(): Promise<Record<string, string>>;
  /** A new PayPal event and the signed headers PayPal sends with it. */
  paypalEvent(): Promise<Record<string, string>>;
  /** Signs in a new staff account with two-factor on: the challenge token and a current code. */
  twoFactorChallenge(): Promise<{ challenge_token: string; code: string }>;
}

/** The account a call is made with (null for anonymous). */
export type Caller = { user_id: number; email: string; password: string; auth: string } | null;

export interface Call {
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  /** JSON body. */
  body?: unknown;
  /** A multipart upload instead of JSON, with its other form `fields`. */
  upload?: { field: string; name: string; content: string; fields?: Record<string, string> };
  headers?: Record<string, string>;
}

export type Status = 200 | 201 | 202 | 204 | 400 | 401 | 403 | 404 | 409 | 412;

export interface AccessCase {
  /** Short name of the case when a route has several. */
  name?: string;
  /** Anyone may call it (anonymous gets what `allow` or `denyAs.anonymous` says, not 401). */
  public?: boolean;
  /** Principals whose call succeeds (2xx, or exactly `status`). */
  allow: readonly PrincipalName[];
  status?: Status;
  /** What the others get (default 404). */
  deny?: Status;
  denyAs?: Partial<Record<PrincipalName, Status>>;
  fresh?: (
    make: FreshMakers,
    f: Fixtures,
    who: PrincipalName,
    caller: Caller,
  ) => Promise<Record<string, string | number>>;
  freshPrincipals?: boolean;
  request: (f: Fixtures, fresh: Record<string, string | number>) => Call;
}

const inOrg = (f: Fixtures) => ({ organization_id: f.org });
/** A staff admin's confirmation that they act in `org` (members and the rest are unaffected by it). */
const confirm = (f: Fixtures) => ({ 'X-Staff-Scope-Confirm': String(f.org) });
/** A request in `org`'s scope, confirmed for a staff admin. */
const inOrgScope = (f: Fixtures) => ({ query: inOrg(f), headers: confirm(f) });
const NOT_STAFF_403 = { deny: 403 as const };
/** Changes only the organization's Admin and a staff admin may make; its other members and staff managers get 403. */
const ORG_ADMINS_ONLY = {
  allow: ['orgAdmin', 'staffAdmin'] as PrincipalName[],
  denyAs: { member: 403, manager: 403, staffManager: 403 } as Partial<Record<PrincipalName, Status>>,
};
/**
 * An invitation answered by its invited account only: the caller's own succeeds for everyone signed in, the
 * owner's only for the owner (the others get 404).
 */
const invitationCases = (
  status: Status,
  request: (x: Record<string, string | number>) => Call,
): AccessCase[] => [
  {
    name: "the caller's own invitation",
    allow: SIGNED_IN,
    status,
    fresh: async (make, _f, _w, caller) => make.invitation(caller?.email ?? (await make.email())),
    request: (_f, x) => request(x),
  },
  {
    name: "the owner's invitation",
    allow: ['owner'],
    status,
    fresh: async (make, f) => make.invitation(f.ownerEmail),
    request: (_f, x) => request(x),
  },
];
/** The caller's current password, which changes to the account's keys and existence ask for again. */
const password = async (_m: FreshMakers, _f: Fixtures, _w: PrincipalName, caller: Caller) => ({
  password: caller?.password ?? 'not-signed-in',
});

/** The site the matrix's widget is embedded on. */
export const WIDGET_SITE = 'https://matrix.example.com';

export const ACCESS: Record<string, AccessCase | AccessCase[]> = {
  // ------------------------------------------------------------------ health, config, AI models
  'GET /api/health': { public: true, allow: PRINCIPALS, request: () => ({}) },
  'GET /api/health/live': { public: true, allow: PRINCIPALS, request: () => ({}) },
  'GET /api/appconfig': { public: true, allow: PRINCIPALS, request: () => ({}) },
  'GET /api/appconfig/admin': { allow: ['staffAdmin'], ...NOT_STAFF_403, request: () => ({}) },
  'PUT /api/appconfig': {
    allow: ['staffAdmin'],
    ...NOT_STAFF_403,
    request: () => ({ body: { config: [{ key: 'app_name', value: 'Avatar Studio' }] } }),
  },
  'GET /api/ai/models': { allow: SIGNED_IN, request: () => ({}) },

  // ------------------------------------------------------------------ the first-run setup checklist
  'GET /api/setup/checklist': { allow: ['staffAdmin'], ...NOT_STAFF_403, request: () => ({}) },
  'POST /api/setup/test/{item}': {
    allow: ['staffAdmin'],
    ...NOT_STAFF_403,
    // File storage on disk: a test that passes without any outside service.
    request: () => ({ params: { item: 'storage' }, body: {} }),
  },
  'DELETE /api/setup/starter-content': { allow: ['staffAdmin'], ...NOT_STAFF_403, request: () => ({}) },

  // ------------------------------------------------------------------ the caller's own account
  'GET /api/users': { allow: SIGNED_IN, request: () => ({}) },
  'PUT /api/users': [
    { allow: SIGNED_IN, request: () => ({ body: { dark_mode: true } }) },
    {
      name: 'default organization',
      allow: ORG_MEMBERS,
      request: (f) => ({ body: { default_organization: f.org } }),
    },
  ],
  'DELETE /api/users': [
    {
      allow: SIGNED_IN,
      status: 204,
      freshPrincipals: true,
      fresh: password,
      request: (_f, x) => ({ body: { password: x.password } }),
    },
    { name: 'without the current password', allow: [], deny: 400, request: () => ({}) },
  ],
  'POST /api/users/api-key': [
    { allow: SIGNED_IN, fresh: password, request: (_f, x) => ({ body: { password: x.password } }) },
    { name: 'without the current password', allow: [], deny: 400, request: () => ({}) },
    {
      name: 'with a wrong password',
      allow: [],
      deny: 403,
      request: () => ({ body: { password: 'not-the-password1' } }),
    },
  ],
  'DELETE /api/users/api-key': { allow: SIGNED_IN, request: () => ({}) },
  'POST /api/users/resetDefaultAvatar': { allow: SIGNED_IN, status: 200, request: () => ({}) },
  'GET /api/users/email': {
    allow: STAFF,
    ...NOT_STAFF_403,
    request: (f) => ({ query: { email: f.ownerEmail } }),
  },
  'GET /api/users/phone': {
    allow: STAFF,
    ...NOT_STAFF_403,
    request: (f) => ({ query: { phone: f.ownerPhone } }),
  },
  'POST /api/users/sendResetPasswordLink': {
    allow: ['staffAdmin'],
    ...NOT_STAFF_403,
    request: (f) => ({ body: { email: f.ownerEmail } }),
  },
  'POST /api/users/resetPasswordLink': {
    allow: ['staffAdmin'],
    ...NOT_STAFF_403,
    request: (f) => ({ body: { email: f.ownerEmail } }),
  },

  // ------------------------------------------------------------------ back-office customers (staff)
  'GET /api/users/admin/all': { allow: STAFF, ...NOT_STAFF_403, request: () => ({ query: { query: 'a' } }) },
  'GET /api/users/{user_id}/admin': {
    allow: STAFF,
    ...NOT_STAFF_403,
    request: (f) => ({ params: { user_id: f.ownerUserId } }),
  },
  'GET /api/users/{user_id}/admin/ledger': {
    allow: STAFF,
    ...NOT_STAFF_403,
    request: (f) => ({ params: { user_id: f.ownerUserId } }),
  },
  'POST /api/users/admin/user': {
    allow: ['staffAdmin'],
    ...NOT_STAFF_403,
    status: 201,
    fresh: async (make) => ({ email: await make.email() }),
    // make.email() belongs to an existing account: a new address is derived from it.
    request: (_f, x) => ({ body: { name: 'New', last_name: 'Customer', email: `new-${x.email}` } }),
  },
  'PUT /api/users/{user_id}/admin': {
    allow: ['staffAdmin'],
    ...NOT_STAFF_403,
    request: (f) => ({ params: { user_id: f.ownerUserId }, body: { instagram: 'owner.studio' } }),
  },
  'DELETE /api/users/admin/{user_id}': {
    allow: ['staffAdmin'],
    ...NOT_STAFF_403,
    status: 204,
    fresh: async (make) => ({ user_id: await make.customer() }),
    request: (_f, x) => ({ params: { user_id: x.user_id } }),
  },
  'POST /api/users/{user_id}/admin/impersonation': {
    allow: ['staffAdmin'],
    ...NOT_STAFF_403,
    status: 201,
    fresh: async (make) => ({ user_id: await make.customer() }),
    request: (_f, x) => ({ params: { user_id: x.user_id } }),
  },

  // ------------------------------------------------------------------ analytics (staff)
  'GET /api/analytics/dashboard': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
  'GET /api/analytics/words': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
  'GET /api/analytics/monthly': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
  'GET /api/analytics/income': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
  'GET /api/analytics/purchases': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
  'GET /api/analytics/customers': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
  'GET /api/analytics/income/report': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
  'GET /api/analytics/purchases/report': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
  'GET /api/analytics/customers/report': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
  'GET /api/analytics/customers/{group}': {
    allow: STAFF,
    ...NOT_STAFF_403,
    request: () => ({ params: { group: 'active' } }),
  },
  'GET /api/analytics/free_trials': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
  'GET /api/analytics/instructors': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
  'GET /api/analytics/instructors/report': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
  'GET /api/analytics/reservations': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
  'GET /api/analytics/videos': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },

  // ------------------------------------------------------------------ sign-in (public; the secret is the token)
  'POST /api/auth/signup': {
    public: true,
    allow: PRINCIPALS,
    status: 201,
    fresh: async (make) => ({ email: await make.email() }),
    request: (_f, x) => ({
      body: {
        name: 'Ana',
        last_name: 'Matrix',
        email: `new-${x.email}`,
        password: 'secret123',
        phone: '5512345678',
      },
    }),
  },
  'POST /api/auth/login': {
    public: true,
    allow: PRINCIPALS,
    status: 200,
    request: (f) => ({ body: { email: f.loginEmail, password: f.loginPassword } }),
  },
  'POST /api/auth/refresh': {
    public: true,
    allow: PRINCIPALS,
    status: 200,
    fresh: async (make) => ({ token: await make.refreshToken() }),
    request: (_f, x) => ({ body: { refresh_token: x.token } }),
  },
  'POST /api/auth/logout': {
    public: true,
    allow: PRINCIPALS,
    status: 204,
    fresh: async (make) => ({ token: await make.refreshToken() }),
    request: (_f, x) => ({ body: { refresh_token: x.token } }),
  },
  'POST /api/auth/recovery': {
    public: true,
    allow: PRINCIPALS,
    status: 200,
    request: (f) => ({ body: { email: f.loginEmail } }),
  },
  'POST /api/auth/reset-password': {
    public: true,
    allow: PRINCIPALS,
    status: 200,
    fresh: async (make) => ({ token: await make.resetToken() }),
    request: (_f, x) => ({ body: { token: x.token, password: 'another123' } }),
  },
  'POST /api/auth/token': {
    public: true,
    allow: PRINCIPALS,
    status: 200,
    fresh: async (make) => ({ token: await make.signInToken() }),
    request: (_f, x) => ({ body: { token: x.token } }),
  },
  'POST /api/auth/impersonation': {
    public: true,
    allow: PRINCIPALS,
    status: 200,
    fresh: async (make) => ({ code: await make.impersonationCode() }),
    request: (_f, x) => ({ body: { code: x.code } }),
  },
  'POST /api/auth/login/2fa': {
    public: true,
    allow: PRINCIPALS,
    status: 200,
    fresh: async (make) => make.twoFactorChallenge(),
    request: (_f, x) => ({ body: { challenge_token: x.challenge_token, code: x.code } }),
  },
  'POST /api/auth/verify-email': {
    public: true,
    allow: PRINCIPALS,
    status: 200,
    fresh: async (make) => ({ token: await make.verifyToken() }),
    request: (_f, x) => ({ body: { token: x.token } }),
  },
  'POST /api/auth/logout-all': { allow: SIGNED_IN, status: 204, freshPrincipals: true, request: () => ({}) },
  'POST /api/auth/verify-email/resend': [
    {
      allow: SIGNED_IN,
      status: 200,
      freshPrincipals: true,
      fresh: async (make, _f, _w, caller) => {
        await make.unverify(caller);
        return {};
      },
      request: () => ({}),
    },
    { name: 'an address already verified', allow: [], deny: 409, request: () => ({}) },
  ],
  // Two-factor is for staff: a customer's call is refused (403), and only with a session.
  'POST /api/auth/2fa/setup': {
    allow: STAFF,
    ...NOT_STAFF_403,
    status: 200,
    freshPrincipals: true,
    request: () => ({}),
  },
  'POST /api/auth/2fa/enable': {
    allow: STAFF,
    ...NOT_STAFF_403,
    status: 200,
    freshPrincipals: true,
    fresh: async (make, _f, who, caller) => ({
      code: STAFF.includes(who as SignedIn) ? await make.twoFactorPending(caller) : '123456',
    }),
    request: (_f, x) => ({ body: { code: x.code } }),
  },
  'POST /api/auth/2fa/disable': {
    // Customers cannot turn two-factor on, so there is nothing to turn off: their code is wrong (400).
    allow: STAFF,
    deny: 400,
    status: 200,
    freshPrincipals: true,
    fresh: async (make, _f, who, caller) => ({
      code: STAFF.includes(who as SignedIn) ? await make.twoFactorOn(caller) : '123456',
      password: caller?.password ?? 'not-signed-in',
    }),
    request: (_f, x) => ({ body: { password: x.password, code: x.code } }),
  },

  // ------------------------------------------------------------------ staff
  'GET /api/staff/admin/all': { allow: ['staffAdmin'], ...NOT_STAFF_403, request: () => ({}) },
  'POST /api/staff': {
    allow: ['staffAdmin'],
    ...NOT_STAFF_403,
    fresh: async (make) => ({ email: await make.email() }),
    request: (_f, x) => ({ body: { email: x.email, role: 'manager' } }),
  },
  'PUT /api/staff': {
    allow: ['staffAdmin'],
    ...NOT_STAFF_403,
    request: (f) => ({ body: { staff_id: f.staffTarget, role: 'manager' } }),
  },
  'DELETE /api/staff/{staff_id}': {
    allow: ['staffAdmin'],
    ...NOT_STAFF_403,
    fresh: async (make) => ({ staff_id: await make.staff() }),
    request: (_f, x) => ({ params: x }),
  },
  'POST /api/words/admin/grant': {
    allow: ['staffAdmin'],
    ...NOT_STAFF_403,
    request: (f) => ({ body: { user_id: f.staffTarget, words: 10 } }),
  },
  'GET /api/words/balance': { allow: SIGNED_IN, request: () => ({}) },

  // ------------------------------------------------------------------ payments (cards, checkout, webhooks)
  'GET /api/payment_method': { allow: SIGNED_IN, request: () => ({}) },
  'GET /api/payment_sources': { allow: SIGNED_IN, request: () => ({}) },
  'POST /api/payment_sources/setup': { allow: SIGNED_IN, status: 201, request: () => ({}) },
  // Only the customer whose SetupIntent it is may save its card.
  'POST /api/payment_sources': {
    allow: ['owner'],
    status: 201,
    fresh: async (make) => ({ setup: await make.confirmedSetupIntent() }),
    request: (_f, x) => ({ body: { setup_intent_id: x.setup } }),
  },
  'DELETE /api/payment_sources/{id}': {
    allow: ['owner'],
    status: 204,
    fresh: async (make) => ({ id: await make.paymentSource() }),
    request: (_f, x) => ({ params: { id: x.id } }),
  },
  'GET /api/stripe/products': [
    { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
    {
      name: "the organization's own Stripe account",
      allow: ['orgAdmin', 'staffAdmin'],
      // Members below Admin are refused; outsiders cannot tell the organization exists.
      denyAs: { member: 403, manager: 403 },
      request: (f) => ({ query: inOrg(f), headers: confirm(f) }),
    },
  ],
  'GET /api/stripe/prices/{stripe_product_id}': {
    allow: STAFF,
    ...NOT_STAFF_403,
    request: (f) => ({ params: { stripe_product_id: f.stripeProduct } }),
  },
  'GET /api/checkout/keys/{product_id}': {
    allow: SIGNED_IN,
    request: (f) => ({ params: { product_id: f.oneOffProduct } }),
  },
  // owner's pending invoice: only its owner may learn which key pays it.
  'GET /api/checkout/invoice_keys/{invoice_id}': {
    allow: ['owner'],
    request: (f) => ({ params: { invoice_id: f.invoice } }),
  },
  'POST /api/checkout/attempt': {
    allow: SIGNED_IN,
    status: 200,
    request: (f) => ({
      body: { type: 'product', product_id: f.oneOffProduct, payment_method_id: 'pm_card_visa' },
    }),
  },
  'POST /api/checkout/capture': {
    allow: ['owner'],
    status: 200,
    fresh: async (make) => ({ purchase: await make.ownerPurchase() }),
    request: (_f, x) => ({ body: { purchase_id: x.purchase } }),
  },
  'POST /api/paypal/order': {
    allow: SIGNED_IN,
    status: 201,
    request: (f) => ({ body: { product_id: f.oneOffProduct } }),
  },
  'POST /api/paypal/order/capture': {
    allow: ['owner'],
    status: 200,
    fresh: async (make) => ({ order: await make.approvedPayPalOrder() }),
    request: (f, x) => ({ body: { product_id: f.oneOffProduct, orderID: x.order } }),
  },
  'POST /api/paypal/subscription': {
    allow: SIGNED_IN,
    status: 201,
    request: (f) => ({ body: { product_id: f.subscriptionProduct } }),
  },
  'POST /api/paypal/subscription/capture': {
    allow: ['owner'],
    status: 200,
    fresh: async (make) => make.approvedPayPalSubscription(),
    request: (f, x) => ({
      body: {
        product_id: f.subscriptionProduct,
        subscriptionID: x.subscriptionID,
        purchase_id: x.purchase_id,
      },
    }),
  },
  // Webhooks are public: the signature, not a session, says who sent them.
  'POST /api/stripe/webhook': {
    public: true,
    allow: PRINCIPALS,
    fresh: async (make) => make.stripeEvent(),
    request: (_f, x) => ({
      body: JSON.parse(String(x.event)),
      headers: { 'stripe-signature': String(x.signature) },
    }),
  },
  'POST /api/stripe/webhook/organization/{organization_id}': {
    public: true,
    allow: PRINCIPALS,
    fresh: async (make) => make.organizationStripeEvent(),
    request: (f, x) => ({
      params: { organization_id: f.org },
      body: JSON.parse(String(x.event)),
      headers: { 'stripe-signature': String(x.signature) },
    }),
  },
  'POST /api/paypal/webhook': {
    public: true,
    allow: PRINCIPALS,
    fresh: async (make) => make.paypalEvent(),
    request: (_f, x) => {
      const { event, ...headers } = x;
      return {
        body: JSON.parse(String(event)),
        headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])),
      };
    },
  },

  // ------------------------------------------------------------------ billing: products, discounts, purchases, invoices
  'GET /api/products/available': { allow: SIGNED_IN, request: () => ({}) },
  'GET /api/products': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
  'GET /api/products/{product_id}': {
    allow: SIGNED_IN,
    request: (f) => ({ params: { product_id: f.product } }),
  },
  'POST /api/products': {
    allow: STAFF,
    ...NOT_STAFF_403,
    status: 201,
    request: () => ({ body: { name: 'New', description: 'New', price: 100, word_amount: 1 } }),
  },
  'PUT /api/products': {
    allow: STAFF,
    ...NOT_STAFF_403,
    request: (f) => ({ body: { product_id: f.product, price: 1000 } }),
  },
  'POST /api/purchases/test': {
    allow: STAFF,
    ...NOT_STAFF_403,
    status: 202,
    request: (f) => ({ body: { product_id: f.product } }),
  },
  'GET /api/discounts/code/{code}': {
    allow: SIGNED_IN,
    request: (f) => ({ params: { code: 'MATRIX' }, query: { product_id: f.product } }),
  },
  'GET /api/discounts': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
  'GET /api/discounts/{discount_id}': {
    allow: STAFF,
    ...NOT_STAFF_403,
    request: (f) => ({ params: { discount_id: f.discount } }),
  },
  'POST /api/discounts': {
    allow: STAFF,
    ...NOT_STAFF_403,
    status: 201,
    fresh: async (make) => ({ code: `M${(await make.email()).replace(/[^A-Za-z0-9]/g, '').slice(0, 40)}` }),
    request: (_f, x) => ({ body: { code: x.code, type: 'fixed', amount: 100 } }),
  },
  'PUT /api/discounts': {
    allow: STAFF,
    ...NOT_STAFF_403,
    request: (f) => ({ body: { discount_id: f.discount, amount: 10 } }),
  },
  'DELETE /api/discounts/{discount_id}': {
    allow: STAFF,
    ...NOT_STAFF_403,
    status: 204,
    request: (f) => ({ params: { discount_id: f.spareDiscount } }),
  },
  'GET /api/purchases': { allow: SIGNED_IN, request: () => ({}) },
  'GET /api/purchases/admin': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
  'GET /api/purchases/{purchase_id}': {
    allow: ['owner', 'staffManager', 'staffAdmin'],
    request: (f) => ({ params: { purchase_id: f.purchase } }),
  },
  'POST /api/purchases/cancel/{purchase_id}': {
    allow: ['owner'],
    status: 201,
    fresh: async (make) => ({ purchase_id: await make.subscription() }),
    request: (_f, x) => ({
      params: x,
      body: { cancel_reason: 'No longer needed here', status: 'cancelled' },
    }),
  },
  'POST /api/purchases/admin': {
    allow: ['staffAdmin'],
    ...NOT_STAFF_403,
    status: 201,
    request: (f) => ({ body: { user_id: f.ownerUserId, product_id: f.product, status: 'pending' } }),
  },
  'PUT /api/purchases/admin': {
    allow: ['staffAdmin'],
    ...NOT_STAFF_403,
    request: (f) => ({ body: { purchase_id: f.purchase, expiration_days: 30 } }),
  },
  'POST /api/users/giveAccess': {
    allow: ['staffAdmin'],
    ...NOT_STAFF_403,
    status: 201,
    request: (f) => ({ body: { user_id: f.ownerUserId, product_id: f.product, gift: true } }),
  },
  'PUT /api/users/revokeAccess': {
    allow: ['staffAdmin'],
    ...NOT_STAFF_403,
    fresh: async (make) => ({ purchase_id: await make.subscription() }),
    request: (_f, x) => ({ body: x }),
  },
  'GET /api/invoices': { allow: SIGNED_IN, request: () => ({}) },
  'GET /api/invoices/admin': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
  'POST /api/invoices/admin': {
    allow: ['staffAdmin'],
    ...NOT_STAFF_403,
    status: 201,
    request: (f) => ({ body: { user_id: f.ownerUserId, amount: 100 } }),
  },
  'PUT /api/invoices/admin': {
    allow: ['staffAdmin'],
    ...NOT_STAFF_403,
    request: (f) => ({ body: { invoice_id: f.invoice, description: 'Edited' } }),
  },
  'GET /api/words/ledger': { allow: SIGNED_IN, request: () => ({}) },

  // ------------------------------------------------------------------ files (owner only; no organization scope)
  'POST /api/files': {
    allow: SIGNED_IN,
    status: 201,
    request: () => ({ body: { name: 'note.txt', content: 'hello' } }),
  },
  'GET /api/files': { allow: SIGNED_IN, request: () => ({}) },
  'GET /api/files/content/{storage_key}': {
    public: true,
    allow: ['owner'],
    denyAs: { anonymous: 404 },
    request: (f) => ({ params: { storage_key: f.fileKey } }),
  },
  'GET /api/files/{id}': { allow: ['owner'], request: (f) => ({ params: { id: f.file } }) },
  'PUT /api/files/{id}': {
    allow: ['owner'],
    request: (f) => ({ params: { id: f.file }, body: { name: 'renamed.txt' } }),
  },
  'DELETE /api/files/{id}': {
    allow: ['owner'],
    fresh: async (make) => ({ id: await make.file() }),
    request: (_f, x) => ({ params: x }),
  },

  // ------------------------------------------------------------------ organizations
  'GET /api/organizations': { allow: SIGNED_IN, request: () => ({}) },
  'POST /api/organizations': {
    allow: STAFF,
    ...NOT_STAFF_403,
    status: 201,
    request: () => ({ body: { name: 'Matrix Made' } }),
  },
  'PUT /api/organizations': {
    ...ORG_ADMINS_ONLY,
    request: (f) => ({ body: { organization_id: f.org, tagline: 'Kept' } }),
  },
  'GET /api/organizations/admin/all': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
  'GET /api/organizations/lookup': {
    public: true,
    allow: PRINCIPALS,
    request: (f) => ({ query: { slug: f.orgSlug } }),
  },
  'GET /api/organizations/{id}': {
    allow: [...ORG_MEMBERS, ...STAFF],
    request: (f) => ({ params: { id: f.org } }),
  },
  'DELETE /api/organizations/{id}': {
    ...ORG_ADMINS_ONLY,
    status: 204,
    fresh: async (make) => {
      const org = await make.organization();
      return { id: org.id, name: org.name };
    },
    request: (_f, x) => ({ params: { id: x.id }, query: { name: x.name } }),
  },
  'GET /api/organizations/{id}/users': {
    allow: ['manager', 'orgAdmin', ...STAFF],
    denyAs: { member: 403 },
    request: (f) => ({ params: { id: f.org } }),
  },
  'POST /api/user-organizations': {
    ...ORG_ADMINS_ONLY,
    status: 201,
    fresh: async (make) => ({ email: await make.email() }),
    request: (f, x) => ({
      body: { organization_id: f.org, name: 'Added', email: `invited-${x.email}`, user_type_id: 3 },
    }),
  },
  'PUT /api/user-organizations': {
    ...ORG_ADMINS_ONLY,
    request: (f) => ({ body: { user_organization_id: f.memberMembership, user_type_id: 3 } }),
  },
  'GET /api/user-organizations/{id}': {
    allow: [...ORG_MEMBERS, ...STAFF],
    request: (f) => ({ params: { id: f.memberMembership } }),
  },
  'DELETE /api/user-organizations/{id}': {
    ...ORG_ADMINS_ONLY,
    status: 204,
    fresh: async (make) => ({ id: await make.membership() }),
    request: (_f, x) => ({ params: x }),
  },

  // ------------------------------------------------------------------ conversations (creator, in its scope)
  'GET /api/conversations': [
    { allow: SIGNED_IN, request: () => ({}) },
    {
      name: 'organization scope',
      allow: [...ORG_MEMBERS, 'staffAdmin'],
      request: inOrgScope,
    },
    {
      name: 'organization scope, not confirmed by staff',
      allow: ORG_MEMBERS,
      denyAs: { staffAdmin: 403 },
      request: (f) => ({ query: inOrg(f) }),
    },
    {
      name: 'organization scope, staff confirmed another organization',
      allow: ORG_MEMBERS,
      denyAs: { staffAdmin: 403 },
      request: (f) => ({ query: inOrg(f), headers: { 'X-Staff-Scope-Confirm': String(f.otherOrg) } }),
    },
  ],
  'POST /api/conversations': {
    allow: SIGNED_IN,
    status: 201,
    request: () => ({ body: { name: 'Mine' } }),
  },
  'PUT /api/conversations': {
    allow: ['owner'],
    request: (f) => ({ body: { conversation_id: f.conversation, name: 'Renamed' } }),
  },
  'GET /api/conversations/tags': { allow: SIGNED_IN, request: () => ({}) },
  'GET /api/conversations/conversation/{conversation_id}': [
    { allow: ['owner'], request: (f) => ({ params: { conversation_id: f.conversation } }) },
    {
      name: "a member's conversation in the organization",
      allow: ['member'],
      request: (f) => ({
        params: { conversation_id: f.orgConversation },
        ...inOrgScope(f),
      }),
    },
  ],
  'POST /api/conversations/file/{conversation_id}': {
    allow: ['owner'],
    request: (f) => ({
      params: { conversation_id: f.conversation },
      upload: { field: 'file', name: 'notes.txt', content: 'Some notes to read.' },
    }),
  },
  'DELETE /api/conversations/file/{conversation_id}': {
    allow: ['owner'],
    fresh: async (make) => ({ conversation_id: await make.conversation(true) }),
    request: (_f, x) => ({ params: x }),
  },
  'DELETE /api/conversations/{conversation_id}': {
    allow: ['owner'],
    status: 204,
    fresh: async (make) => ({ conversation_id: await make.conversation() }),
    request: (_f, x) => ({ params: x }),
  },

  // ------------------------------------------------------------------ messages
  'POST /api/messages': [
    {
      allow: ['owner'],
      status: 201,
      request: (f) => ({ body: { conversation_id: f.conversation, content: 'Hello there', stream: false } }),
    },
    {
      name: "the caller's thread with owner's avatar",
      allow: ['owner', 'staffAdmin'],
      status: 201,
      request: (f) => ({ body: { avatar_id: f.avatar, content: 'Hello there', stream: false } }),
    },
    {
      name: "owner's private template applied in the caller's own conversation",
      allow: ['owner', ...STAFF],
      status: 201,
      fresh: async (make, _f, who) => ({ conversation_id: await make.conversationOf(who) }),
      request: (f, x) => ({
        body: {
          conversation_id: x.conversation_id,
          template_id: f.template,
          values: { topic: 'x' },
          stream: false,
        },
      }),
    },
  ],
  'GET /api/messages': { allow: SIGNED_IN, request: () => ({}) },
  'PUT /api/messages': {
    allow: ['owner'],
    request: (f) => ({ body: { message_id: f.message, favorite: true } }),
  },
  'POST /api/messages/enhance': {
    allow: SIGNED_IN,
    status: 201,
    request: () => ({ body: { content: 'Write a poem about the sea, please.', stream: false } }),
  },
  'GET /api/messages/thread/{avatar_id}': [
    { allow: ['owner', 'staffAdmin'], request: (f) => ({ params: { avatar_id: f.avatar } }) },
    {
      name: 'a public avatar',
      allow: SIGNED_IN,
      request: (f) => ({ params: { avatar_id: f.publicAvatar } }),
    },
  ],
  'GET /api/messages/thread/{avatar_id}/{page}': {
    allow: ['owner', 'staffAdmin'],
    request: (f) => ({ params: { avatar_id: f.avatar, page: 1 } }),
  },
  'GET /api/messages/conversation/{conversation_id}': [
    { allow: ['owner'], request: (f) => ({ params: { conversation_id: f.conversation } }) },
    {
      name: "a member's conversation in the organization",
      allow: ['member'],
      request: (f) => ({
        params: { conversation_id: f.orgConversation },
        ...inOrgScope(f),
      }),
    },
  ],
  'DELETE /api/messages/{message_id}': {
    allow: ['owner'],
    status: 204,
    fresh: async (make) => ({ message_id: await make.message() }),
    request: (_f, x) => ({ params: x }),
  },
  'POST /api/messages/pdf': { allow: SIGNED_IN, request: () => ({ body: { text: '# Hi\n\nThere.' } }) },
  'POST /api/messages/word': { allow: SIGNED_IN, request: () => ({ body: { text: '# Hi\n\nThere.' } }) },
  'POST /api/messages/share': {
    allow: ['owner'],
    status: 201,
    request: (f) => ({ body: { message_id: f.message, avatar_id: f.avatar } }),
  },

  // ------------------------------------------------------------------ avatars (owner or staff admin manage)
  'GET /api/avatars': { allow: SIGNED_IN, request: () => ({}) },
  'GET /api/avatars/public/all': { allow: SIGNED_IN, request: () => ({}) },
  'GET /api/avatars/super-fetch': { allow: SIGNED_IN, request: () => ({}) },
  'GET /api/avatars/{avatar_id}': [
    { allow: ['owner', 'staffAdmin'], request: (f) => ({ params: { avatar_id: f.avatar } }) },
    {
      name: 'a public avatar',
      allow: SIGNED_IN,
      request: (f) => ({ params: { avatar_id: f.publicAvatar } }),
    },
  ],
  'GET /api/avatars/{avatar_id}/passages': {
    allow: ['owner', 'staffAdmin'],
    request: (f) => ({ params: { avatar_id: f.avatar }, query: { question: 'What is in it?' } }),
  },
  'POST /api/avatars': { allow: SIGNED_IN, status: 201, request: () => ({ body: { name: 'Mine' } }) },
  'PUT /api/avatars': [
    {
      allow: ['owner', 'staffAdmin'],
      request: (f) => ({ body: { avatar_id: f.avatar, description: 'Changed' } }),
    },
    {
      name: "another's public avatar is seen, not changed",
      allow: ['staffAdmin'],
      deny: 403,
      request: (f) => ({ body: { avatar_id: f.publicAvatar, description: 'Changed' } }),
    },
  ],
  'PUT /api/avatars/add-context/{avatar_id}': {
    allow: ['owner', 'staffAdmin'],
    request: (f) => ({ params: { avatar_id: f.avatar }, body: { context: 'You answer briefly.' } }),
  },
  'POST /api/avatars/add-file/{avatar_id}/{assistant_id}': {
    allow: ['owner', 'staffAdmin'],
    status: 201,
    request: (f) => ({
      params: { avatar_id: f.avatar, assistant_id: f.avatarKey },
      upload: { field: 'file', name: 'notes.txt', content: 'Some notes.' },
    }),
  },
  'POST /api/avatars/add-editable-file/{avatar_id}/{assistant_id}': {
    allow: ['owner', 'staffAdmin'],
    status: 201,
    request: (f) => ({
      params: { avatar_id: f.avatar, assistant_id: f.avatarKey },
      body: { name: 'notes', content: 'Some notes.' },
    }),
  },
  'PUT /api/avatars/editable-file/{file_id}': {
    allow: ['owner', 'staffAdmin'],
    request: (f) => ({ params: { file_id: f.avatarFile }, body: { content: 'New notes.' } }),
  },
  'DELETE /api/avatars/file/{file_id}/{openai_file_id}/{assistant_id}': {
    allow: ['owner', 'staffAdmin'],
    status: 204,
    fresh: async (make) => {
      const made = await make.avatar();
      return { file_id: made.file_id, openai_file_id: String(made.file_id), assistant_id: made.assistant_id };
    },
    request: (_f, x) => ({ params: x }),
  },
  'DELETE /api/avatars/{avatar_id}': {
    allow: ['owner', 'staffAdmin'],
    status: 204,
    fresh: async (make) => ({ avatar_id: (await make.avatar()).avatar_id }),
    request: (_f, x) => ({ params: x }),
  },
  // The rated output of a learned training is one of the avatar's; refining changes the avatar (owner or admin).
  'POST /api/avatars/refine': {
    allow: ['owner', 'staffAdmin'],
    fresh: async (make, f) => {
      await make.training(true);
      return { avatar_id: f.avatar };
    },
    request: (_f, x) => ({ body: x }),
  },
  // Both avatars must be the caller's to change; the training is one of the target's, executed.
  'POST /api/avatars/combine': {
    allow: ['owner', 'staffAdmin'],
    status: 201,
    fresh: async (make, f) => ({
      selected_avatar_id: (await make.avatar()).avatar_id,
      target_avatar_id: f.avatar,
      target_training_id: await make.training(true),
    }),
    request: (_f, x) => ({ body: { ...x, name: 'Combined' } }),
  },
  // A message to an avatar the caller may see (a chat is not a change): the public one for everyone signed in.
  'POST /api/avatars/user-message/document-request': [
    {
      allow: ['owner', 'staffAdmin'],
      status: 201,
      request: (f) => ({
        upload: {
          field: 'file',
          name: 'notes.txt',
          content: 'Some notes to read.',
          fields: { avatar_id: String(f.avatar), message: 'Summarize it.' },
        },
      }),
    },
    {
      name: 'a public avatar',
      allow: SIGNED_IN,
      status: 201,
      request: (f) => ({
        upload: {
          field: 'file',
          name: 'notes.txt',
          content: 'Some notes to read.',
          fields: { avatar_id: String(f.publicAvatar), message: 'Summarize it.' },
        },
      }),
    },
  ],

  // ------------------------------------------------------------------ trainings and outputs (like avatars)
  'GET /api/trainings': { allow: SIGNED_IN, request: () => ({}) },
  'GET /api/trainings/public/all': { allow: SIGNED_IN, request: () => ({}) },
  'GET /api/trainings/{training_id}': {
    allow: ['owner', 'staffAdmin'],
    request: (f) => ({ params: { training_id: f.training } }),
  },
  // The dataset must be the caller's own upload, so even a staff admin cannot train with owner's file.
  'POST /api/trainings': {
    allow: ['owner'],
    status: 201,
    request: (f) => ({ body: { name: 'Posts', avatar_id: f.avatar, file_id: f.file } }),
  },
  'PUT /api/trainings': {
    allow: ['owner', 'staffAdmin'],
    request: (f) => ({ body: { training_id: f.training, name: 'Renamed' } }),
  },
  'POST /api/trainings/execute': {
    allow: ['owner', 'staffAdmin'],
    fresh: async (make) => ({ training_id: await make.training() }),
    request: (_f, x) => ({ body: x }),
  },
  'POST /api/trainings/sync': {
    allow: ['owner', 'staffAdmin'],
    fresh: async (make) => ({ training_id: await make.training() }),
    request: (_f, x) => ({ body: x }),
  },
  'POST /api/trainings/refine': {
    allow: ['owner', 'staffAdmin'],
    fresh: async (make) => ({ training_id: await make.training(true) }),
    request: (_f, x) => ({ body: x }),
  },
  'DELETE /api/trainings/{training_id}': {
    allow: ['owner', 'staffAdmin'],
    status: 204,
    fresh: async (make) => ({ training_id: await make.training() }),
    request: (_f, x) => ({ params: x }),
  },
  'GET /api/outputs/avatar/{avatar_id}': {
    allow: ['owner', 'staffAdmin'],
    request: (f) => ({ params: { avatar_id: f.avatar }, query: { query: 'post' } }),
  },
  'GET /api/outputs/training/{training_id}': {
    allow: ['owner', 'staffAdmin'],
    request: (f) => ({ params: { training_id: f.training } }),
  },
  'POST /api/outputs': {
    allow: ['owner', 'staffAdmin'],
    status: 201,
    request: (f) => ({ body: { avatar_id: f.avatar, prompt: 'A post', content: 'Written by hand' } }),
  },
  'POST /api/outputs/generate': {
    allow: ['owner', 'staffAdmin'],
    status: 201,
    request: (f) => ({ body: { training_id: f.training, prompt: 'A post' } }),
  },
  // Outputs are their writer's alone: a staff admin sees the avatar but not owner's outputs.
  'POST /api/outputs/message': {
    allow: ['owner'],
    status: 201,
    request: (f) => ({ body: { output_id: f.output, message: 'Shorter' } }),
  },
  'POST /api/outputs/rate': {
    allow: ['owner'],
    request: (f) => ({ body: { output_id: f.output, rating: 'up', note: 'Good' } }),
  },
  'PUT /api/outputs': {
    allow: ['owner'],
    request: (f) => ({ body: { output_id: f.output, content: 'Edited' } }),
  },
  'DELETE /api/outputs/{output_id}': {
    allow: ['owner'],
    status: 204,
    fresh: async (make) => ({ output_id: await make.output() }),
    request: (_f, x) => ({ params: x }),
  },

  // ------------------------------------------------------------------ campaigns (visibility in the service)
  'GET /api/campaigns/organization/{id}': {
    allow: [...ORG_MEMBERS, ...STAFF],
    request: (f) => ({ params: { id: f.org }, query: { query: 'a', sortBy: 'name_asc' } }),
  },
  'GET /api/campaigns/{id}': {
    allow: [...ORG_MEMBERS, ...STAFF],
    request: (f) => ({ params: { id: f.campaign } }),
  },
  'GET /api/campaigns/{id}/resources': {
    allow: [...ORG_MEMBERS, ...STAFF],
    request: (f) => ({ params: { id: f.campaign }, query: { resources: 'templates' } }),
  },
  'GET /api/campaigns/{id}/documents/{document_id}': {
    allow: [...ORG_MEMBERS, ...STAFF],
    request: (f) => ({ params: { id: f.campaign, document_id: f.campaignDocument } }),
  },
  'GET /api/campaigns/{id}/templates/{template_id}': {
    allow: [...ORG_MEMBERS, ...STAFF],
    request: (f) => ({ params: { id: f.campaign, template_id: f.orgTemplate } }),
  },
  'POST /api/campaigns': {
    allow: ['manager', 'orgAdmin', ...STAFF],
    status: 201,
    denyAs: { member: 403 },
    request: (f) => ({ body: { organization_id: f.org, name: 'Matrix campaign' } }),
  },
  'PUT /api/campaigns': {
    allow: ['manager', 'orgAdmin', ...STAFF],
    denyAs: { member: 403 },
    request: (f) => ({ body: { campaign_id: f.campaign, description: 'Edited' } }),
  },
  'DELETE /api/campaigns/campaign/{id}': {
    allow: ['manager', 'orgAdmin', ...STAFF],
    status: 204,
    denyAs: { member: 403 },
    fresh: async (make) => ({ id: await make.campaign({ givenToMember: true }) }),
    request: (_f, x) => ({ params: x }),
  },
  'POST /api/campaigns/campaign-resource': {
    allow: ['manager', 'orgAdmin', ...STAFF],
    status: 201,
    denyAs: { member: 403 },
    fresh: async (make) => ({ campaign_id: await make.campaign({ givenToMember: true }) }),
    request: (f, x) => ({
      body: { resource_id: f.orgTemplate, campaign_id: x.campaign_id, type: 'template' },
    }),
  },
  'PUT /api/campaigns/campaign-resource': {
    allow: ['manager', 'orgAdmin', ...STAFF],
    denyAs: { member: 403 },
    request: (f) => ({ body: { resource_id: f.orgTemplate, campaign_id: f.campaign, type: 'template' } }),
  },
  'DELETE /api/campaigns/campaign-resource/{type}/{resource_id}/{campaign_id}': {
    allow: ['manager', 'orgAdmin', ...STAFF],
    status: 204,
    denyAs: { member: 403 },
    fresh: async (make) => ({
      campaign_id: await make.campaign({ withTemplate: true, givenToMember: true }),
    }),
    request: (f, x) => ({
      params: { type: 'template', resource_id: f.orgTemplate, campaign_id: x.campaign_id },
    }),
  },
  'POST /api/campaigns/give-access/{campaign_id}': {
    allow: ['manager', 'orgAdmin', ...STAFF],
    denyAs: { member: 403 },
    request: (f) => ({ params: { campaign_id: f.campaign }, body: { user_id: f.memberUserId } }),
  },
  'POST /api/campaigns/revoke-access/{campaign_id}': {
    allow: ['manager', 'orgAdmin', ...STAFF],
    denyAs: { member: 403 },
    fresh: async (make) => ({ campaign_id: await make.campaign({ givenToMember: true }) }),
    request: (f, x) => ({ params: x, body: { user_id: f.memberUserId } }),
  },

  // ------------------------------------------------------------------ groups (Managers and Admins; staff look)
  'GET /api/groups/organization/{id}': {
    allow: ['manager', 'orgAdmin', ...STAFF],
    denyAs: { member: 403 },
    request: (f) => ({ params: { id: f.org } }),
  },
  'GET /api/groups/{id}': {
    allow: ['manager', 'orgAdmin', ...STAFF],
    denyAs: { member: 403 },
    request: (f) => ({ params: { id: f.group } }),
  },
  'POST /api/groups': {
    allow: ['manager', 'orgAdmin'],
    status: 201,
    denyAs: { member: 403, staffManager: 403, staffAdmin: 403 },
    request: (f) => ({ body: { name: 'Matrix group', organization_id: f.org } }),
  },
  'PUT /api/groups': {
    allow: ['manager', 'orgAdmin'],
    denyAs: { member: 403, staffManager: 403, staffAdmin: 403 },
    request: (f) => ({ body: { group_id: f.group, name: 'Renamed group' } }),
  },
  'DELETE /api/groups/{id}': {
    allow: ['manager', 'orgAdmin'],
    status: 204,
    denyAs: { member: 403, staffManager: 403, staffAdmin: 403 },
    fresh: async (make) => ({ id: await make.group() }),
    request: (_f, x) => ({ params: x }),
  },
  'POST /api/groups/users/{groupId}/{userId}': {
    allow: ['manager', 'orgAdmin'],
    status: 201,
    denyAs: { member: 403, staffManager: 403, staffAdmin: 403 },
    request: (f) => ({ params: { groupId: f.group, userId: f.memberUserId } }),
  },
  'DELETE /api/groups/users/{groupId}/{userId}': {
    allow: ['manager', 'orgAdmin'],
    status: 204,
    denyAs: { member: 403, staffManager: 403, staffAdmin: 403 },
    fresh: async (make) => ({ groupId: await make.group(true) }),
    request: (f, x) => ({ params: { groupId: x.groupId, userId: f.memberUserId } }),
  },

  // ------------------------------------------------------------------ documents (creator, in its scope)
  'GET /api/documents': { allow: SIGNED_IN, request: () => ({}) },
  'POST /api/documents': {
    allow: SIGNED_IN,
    status: 201,
    request: () => ({ body: { name: 'Doc', content: 'Text' } }),
  },
  'PUT /api/documents': [
    {
      allow: ['owner'],
      request: (f) => ({ body: { document_id: f.document, name: 'Renamed' } }),
    },
    {
      name: "a member's document in the organization",
      allow: ['member'],
      request: (f) => ({
        body: { document_id: f.orgDocument, name: 'Renamed' },
        ...inOrgScope(f),
      }),
    },
  ],
  'GET /api/documents/{document_id}': [
    { allow: ['owner'], request: (f) => ({ params: { document_id: f.document } }) },
    {
      name: "a member's document in the organization",
      allow: ['member'],
      request: (f) => ({ params: { document_id: f.orgDocument }, ...inOrgScope(f) }),
    },
  ],
  'GET /api/documents/tags': { allow: SIGNED_IN, request: () => ({}) },
  'GET /api/documents/doc-converted/{document_id}': [
    { allow: ['owner'], request: (f) => ({ params: { document_id: f.document } }) },
    {
      name: "a member's document in the organization",
      allow: ['member'],
      request: (f) => ({ params: { document_id: f.orgDocument }, query: inOrg(f), headers: confirm(f) }),
    },
  ],
  'POST /api/documents/{document_id}/generate': {
    allow: ['owner'],
    status: 202,
    request: (f) => ({ params: { document_id: f.document }, body: { prompt: 'Write a title' } }),
  },
  // The caller's document and an avatar they see; anyone else's document is 404 whatever the avatar.
  'POST /api/documents/avatar-output': {
    allow: ['owner'],
    status: 202,
    request: (f) => ({ body: { document_id: f.document, avatar_id: f.avatar, prompt: 'Write a title' } }),
  },
  // Read through the campaign's visibility (given to member; Manager owns it; Admin and staff see all).
  'GET /api/documents/{document_id}/campaigns/{campaign_id}': {
    allow: [...ORG_MEMBERS, ...STAFF],
    request: (f) => ({ params: { document_id: f.campaignDocument, campaign_id: f.campaign } }),
  },
  // Stops only the caller's own generation (the key names the user), so anyone signed in gets 204.
  'DELETE /api/documents/generations/{generation_id}': {
    allow: SIGNED_IN,
    status: 204,
    request: () => ({ params: { generation_id: '3f0c8a3e-2b7c-4c1e-9d7a-1b2c3d4e5f60' } }),
  },
  'DELETE /api/documents/{document_id}': {
    allow: ['owner'],
    status: 204,
    fresh: async (make) => ({ document_id: await make.document() }),
    request: (_f, x) => ({ params: x }),
  },

  // ------------------------------------------------------------------ topic and hashtag ideas (creator, in its scope)
  'POST /api/topics/generate': {
    allow: SIGNED_IN,
    status: 202,
    request: () => ({ body: { subject: 'Coffee', count: 3 } }),
  },
  'GET /api/topics': { allow: SIGNED_IN, request: () => ({}) },
  'DELETE /api/topics/generations/{generation_id}': {
    allow: SIGNED_IN,
    status: 204,
    request: () => ({ params: { generation_id: '3f0c8a3e-2b7c-4c1e-9d7a-1b2c3d4e5f60' } }),
  },
  'DELETE /api/topics/{idea_id}': {
    allow: ['owner'],
    status: 204,
    fresh: async (make) => ({ idea_id: await make.idea('topics') }),
    request: (_f, x) => ({ params: x }),
  },
  'POST /api/hashtags/generate': {
    allow: SIGNED_IN,
    status: 202,
    request: () => ({ body: { text: 'Morning coffee', platform: 'instagram' } }),
  },
  'GET /api/hashtags': { allow: SIGNED_IN, request: () => ({}) },
  'DELETE /api/hashtags/generations/{generation_id}': {
    allow: SIGNED_IN,
    status: 204,
    request: () => ({ params: { generation_id: '3f0c8a3e-2b7c-4c1e-9d7a-1b2c3d4e5f60' } }),
  },
  'DELETE /api/hashtags/{idea_id}': {
    allow: ['owner'],
    status: 204,
    fresh: async (make) => ({ idea_id: await make.idea('hashtags') }),
    request: (_f, x) => ({ params: x }),
  },

  // ------------------------------------------------------------------ Super Fetch (the caller's own assistant and history)
  'GET /api/super_fetch/messages/{assistant_id}': {
    // Everyone reads their own history with an assistant (empty for another's).
    allow: SIGNED_IN,
    request: (f) => ({ params: { assistant_id: f.superFetchAssistant } }),
  },
  'DELETE /api/super_fetch/messages/{assistant_id}': {
    allow: SIGNED_IN,
    request: (f) => ({ params: { assistant_id: f.superFetchAssistant } }),
  },
  'POST /api/super_fetch': {
    allow: ['owner'],
    status: 202,
    request: (f) => ({ body: { assistant_id: f.superFetchAssistant, messages: ['Write a tagline'] } }),
  },
  'POST /api/super_fetch/v2': {
    allow: ['owner'],
    status: 202,
    request: (f) => ({
      body: {
        assistant_id: f.superFetchAssistant,
        values: { task: 'Post', topic: 'Tea', target: 'All', person: 'Me', tone: 'Warm', format: 'AIDA' },
      },
    }),
  },
  'DELETE /api/super_fetch/generations/{generation_id}': {
    allow: SIGNED_IN,
    status: 204,
    request: () => ({ params: { generation_id: '3f0c8a3e-2b7c-4c1e-9d7a-1b2c3d4e5f60' } }),
  },

  // ------------------------------------------------------------------ chat widgets (their owner, in its scope)
  'GET /api/widgets': { allow: SIGNED_IN, request: () => ({}) },
  'POST /api/widgets': {
    // The avatar is owner's (a staff admin sees every avatar): anyone else is told to select an avatar.
    allow: ['owner', 'staffAdmin'],
    deny: 400,
    status: 201,
    request: (f) => ({ body: { avatar_id: f.avatar, name: 'Matrix widget' } }),
  },
  'GET /api/widgets/{widget_id}': { allow: ['owner'], request: (f) => ({ params: { widget_id: f.widget } }) },
  'PUT /api/widgets/{widget_id}': {
    allow: ['owner'],
    request: (f) => ({ params: { widget_id: f.widget }, body: { name: 'Renamed' } }),
  },
  'DELETE /api/widgets/{widget_id}': {
    allow: ['owner'],
    status: 204,
    fresh: async (make) => ({ widget_id: await make.widget() }),
    request: (_f, x) => ({ params: x }),
  },
  // A widget's visitors: anyone on an allowed site opens a session; its routes take a visitor token only.
  'POST /api/widget/{key}/sessions': {
    public: true,
    allow: PRINCIPALS,
    status: 201,
    request: (f) => ({ params: { key: f.widgetKey }, headers: { Origin: WIDGET_SITE } }),
  },
  'GET /api/widget/{key}/messages': {
    allow: [],
    deny: 401,
    request: (f) => ({ params: { key: f.widgetKey }, headers: { Origin: WIDGET_SITE } }),
  },
  'POST /api/widget/{key}/messages': {
    allow: [],
    deny: 401,
    request: (f) => ({
      params: { key: f.widgetKey },
      headers: { Origin: WIDGET_SITE },
      body: { text: 'Hi' },
    }),
  },

  // ------------------------------------------------------------------ tutorials (everyone watches, staff manage)
  'GET /api/tutorials': { allow: SIGNED_IN, request: () => ({ query: { language: 'en' } }) },
  'GET /api/tutorials/{tutorial_id}': {
    allow: SIGNED_IN,
    request: (f) => ({ params: { tutorial_id: f.tutorial } }),
  },
  'POST /api/tutorials/{tutorial_id}/plays': {
    allow: SIGNED_IN,
    status: 204,
    request: (f) => ({ params: { tutorial_id: f.tutorial } }),
  },
  'POST /api/tutorials': {
    allow: STAFF,
    deny: 403,
    status: 201,
    request: () => ({ body: { name: 'Intro', src: 'dQw4w9WgXcQ' } }),
  },
  'PUT /api/tutorials': {
    allow: STAFF,
    deny: 403,
    request: (f) => ({ body: { tutorial_id: f.tutorial, order: 1 } }),
  },
  'DELETE /api/tutorials/{tutorial_id}': {
    allow: STAFF,
    deny: 403,
    status: 204,
    fresh: async (make) => ({ tutorial_id: await make.tutorial() }),
    request: (_f, x) => ({ params: x }),
  },

  // ------------------------------------------------------------------ templates (staff see every one)
  'GET /api/templates': { allow: SIGNED_IN, request: () => ({}) },
  'POST /api/templates': {
    allow: SIGNED_IN,
    status: 201,
    request: () => ({ body: { name: 'Mine', description: 'Mine', content: 'Write about [topic].' } }),
  },
  'PUT /api/templates': [
    {
      allow: ['owner', 'staffAdmin'],
      denyAs: { staffManager: 403 },
      request: (f) => ({ body: { template_id: f.template, name: 'Renamed', description: 'Mine' } }),
    },
    {
      name: "the organization's template",
      allow: ['orgAdmin', 'staffAdmin'],
      denyAs: { member: 403, manager: 403 },
      request: (f) => ({
        body: { template_id: f.orgTemplate, name: 'Renamed', description: 'Org' },
        ...inOrgScope(f),
      }),
    },
  ],
  'GET /api/templates/all': { allow: STAFF, ...NOT_STAFF_403, request: () => ({}) },
  'GET /api/templates/public': { allow: SIGNED_IN, request: () => ({}) },
  'GET /api/templates/tags': { allow: SIGNED_IN, request: () => ({}) },
  'GET /api/templates/types': { allow: SIGNED_IN, request: () => ({}) },
  'GET /api/templates/tag/{tag}': { allow: SIGNED_IN, request: () => ({ params: { tag: 'blog' } }) },
  'GET /api/templates/type/{type}': { allow: SIGNED_IN, request: () => ({ params: { type: 'Post' } }) },
  'POST /api/templates/favorite': [
    {
      allow: ['owner', ...STAFF],
      request: (f) => ({ body: { template_id: f.template } }),
    },
    {
      name: "the organization's template",
      allow: [...ORG_MEMBERS, 'staffAdmin'],
      request: (f) => ({ body: { template_id: f.orgTemplate }, ...inOrgScope(f) }),
    },
  ],
  'GET /api/templates/{template_id}': [
    { allow: ['owner', ...STAFF], request: (f) => ({ params: { template_id: f.template } }) },
    {
      name: "the organization's template",
      allow: [...ORG_MEMBERS, 'staffAdmin'],
      request: (f) => ({ params: { template_id: f.orgTemplate }, ...inOrgScope(f) }),
    },
  ],
  'DELETE /api/templates/{template_id}': [
    {
      allow: ['owner', 'staffAdmin'],
      status: 204,
      denyAs: { staffManager: 403 },
      fresh: async (make) => ({ template_id: await make.template() }),
      request: (_f, x) => ({ params: x }),
    },
    {
      name: "the organization's template",
      allow: ['orgAdmin', 'staffAdmin'],
      status: 204,
      denyAs: { member: 403, manager: 403 },
      fresh: async (make) => ({ template_id: await make.orgTemplate() }),
      request: (f, x) => ({ params: x, ...inOrgScope(f) }),
    },
  ],

  // ------------------------------------------------------------------ workflows (staff catalogue, read by all)
  'GET /api/workflows': { allow: SIGNED_IN, request: () => ({}) },
  'POST /api/workflows': {
    allow: STAFF,
    ...NOT_STAFF_403,
    status: 201,
    request: (f) => ({ body: { name: 'Flow', template_ids: [f.publicTemplate] } }),
  },
  'PUT /api/workflows': {
    allow: STAFF,
    ...NOT_STAFF_403,
    request: (f) => ({ body: { workflow_id: f.workflow, name: 'Flow' } }),
  },
  'GET /api/workflows/{workflow_id}': {
    allow: SIGNED_IN,
    request: (f) => ({ params: { workflow_id: f.workflow } }),
  },
  'DELETE /api/workflows/{workflow_id}': {
    allow: STAFF,
    ...NOT_STAFF_403,
    fresh: async (make) => ({ workflow_id: await make.workflow() }),
    request: (_f, x) => ({ params: x }),
  },

  // ------------------------------------------------------------------ user workflows (creator, in its scope)
  'GET /api/user_workflows': { allow: SIGNED_IN, request: () => ({}) },
  'POST /api/user_workflows': {
    allow: SIGNED_IN,
    status: 201,
    request: (f) => ({ body: { workflow_id: f.workflow, values: { topic: 'cats' } } }),
  },
  'PUT /api/user_workflows': {
    allow: ['owner'],
    request: (f) => ({ body: { user_workflow_id: f.userWorkflow, name: 'Renamed' } }),
  },
  'GET /api/user_workflows/{user_workflow_id}': {
    allow: ['owner'],
    request: (f) => ({ params: { user_workflow_id: f.userWorkflow } }),
  },
  'DELETE /api/user_workflows/{user_workflow_id}': {
    allow: ['owner'],
    status: 204,
    fresh: async (make) => ({ user_workflow_id: await make.userWorkflow() }),
    request: (_f, x) => ({ params: x }),
  },
  'POST /api/user_workflows/{user_workflow_id}/regenerate/{conversation_id}': {
    allow: ['owner'],
    request: (f) => ({
      params: { user_workflow_id: f.userWorkflow, conversation_id: f.userWorkflowConversation },
    }),
  },
  // ------------------------------------------------------------------ audit log (staff admins)
  'GET /api/audit-events': { allow: ['staffAdmin'], ...NOT_STAFF_403, request: () => ({}) },

  // ------------------------------------------------------------------ invitations (only the invited email's account)
  'GET /api/organization-invitations': { allow: SIGNED_IN, request: () => ({}) },
  'POST /api/organization-invitations/accept': invitationCases(200, (x) => ({ body: { token: x.token } })),
  'POST /api/organization-invitations/{id}/accept': invitationCases(200, (x) => ({ params: { id: x.id } })),
  'POST /api/organization-invitations/{id}/decline': invitationCases(204, (x) => ({ params: { id: x.id } })),

  // ------------------------------------------------------------------ retrying an interrupted answer (its author)
  'POST /api/messages/{message_id}/retry': {
    allow: ['owner'],
    status: 201,
    fresh: async (make) => ({ message_id: await make.interruptedAnswer() }),
    request: (_f, x) => ({ params: x }),
  },
};
