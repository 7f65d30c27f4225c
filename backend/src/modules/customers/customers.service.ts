import { Injectable } from '@nestjs/common';
import {
  ADMIN_USERS_PAGE_SIZE,
  type CustomerSearchField,
  type CustomerSort,
  type StaffRole,
} from '@avatar-studio/contracts';
import type { Principal } from '../../common/auth/principal';
import { conflict, forbidden, notFound } from '../../common/errors/domain-error';
import { AnalyticsService } from '../analytics/analytics.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { PurchasesService } from '../purchases/purchases.service';
import { FreshSharedReads } from '../../common/concurrency/fresh-shared-reads';
import { UnitOfWork } from '../../database/unit-of-work';
import { type Page, toPage } from '../../common/http/pagination';
import { AuditService } from '../audit/audit.service';
import { AuthService } from '../auth/auth.service';
import { StaffService } from '../staff/staff.service';
import { UsersService } from '../users/users.service';
import type { CustomerListRow } from '../users/users.repository';
import { WordsService } from '../words/words.service';
import type {
  CreateCustomerDto,
  CreatedCustomerResponse,
  CustomerPageResponse,
  CustomerResponse,
  CustomersQuery,
  ImpersonationCodeResponse,
  UpdateCustomerDto,
} from './dto/customers.dto';

/** One page of the customers list: the search, the order and the page (everything its answer depends on). */
interface CustomerListFilter {
  text?: string;
  field: CustomerSearchField;
  sort: CustomerSort;
  direction: 'asc' | 'desc';
  page: Page;
}

/** The customer screen lists at most this many of their organizations. */
const CUSTOMER_ORGANIZATIONS_SHOWN = 100;

export const CUSTOMER_MESSAGES = {
  staffProtected:
    'This is a staff account: staff accounts are managed in Staff, and cannot be edited, opened or deleted here.',
  subscriptionRenewing:
    'This customer has a subscription that still renews. Cancel it first, then delete the customer.',
  viewerCannotOpen: 'You are viewing a customer’s account: go back to your own to open another.',
};

/**
 * The back office's customers: the list staff search, one customer with their words, and a customer made by
 * staff without sign-up. Owns no table: accounts are the users module's, words the words module's.
 */
@Injectable()
export class CustomersService {
  constructor(
    private readonly users: UsersService,
    private readonly words: WordsService,
    private readonly auth: AuthService,
    private readonly audit: AuditService,
    private readonly staff: StaffService,
    private readonly purchases: PurchasesService,
    private readonly organizations: OrganizationsService,
    private readonly analytics: AnalyticsService,
    private readonly uow: UnitOfWork,
  ) {}

  /**
   * Identical list requests at once (the same page of the same search and order) share one computation that
   * started after they arrived (FreshSharedReads, as the analytics calls do): staff reloading the list together
   * cost the database about two computations, and each answer is as current as its own would be. The answer
   * does not depend on who asks (every staff member who may list sees the same customers).
   */
  private readonly sharedPages = new FreshSharedReads();

  list(query: CustomersQuery): Promise<CustomerPageResponse> {
    const filter: CustomerListFilter = {
      text: query.query,
      field: query.field ?? 'all',
      sort: query.sort ?? 'user_id',
      direction: query.direction ?? 'desc',
      page: toPage(query, ADMIN_USERS_PAGE_SIZE),
    };
    const key = JSON.stringify([filter.text, filter.field, filter.sort, filter.direction, filter.page]);
    return this.sharedPages.read(key, () => this.listPage(filter));
  }

  private async listPage({ page, text, ...order }: CustomerListFilter): Promise<CustomerPageResponse> {
    const search = text?.trim();
    let rows: CustomerListRow[];
    let roles: Map<number, StaffRole> | null;
    let total: number;
    if (search) {
      ({ rows, total } = await this.users.searchedPage({
        ...order,
        text: search,
        skip: page.skip,
        limit: page.limit,
      }));
      roles = await this.staff.rolesOf(rows.map((u) => u.user_id));
    } else {
      // The page, every staff member's role and every account's count in one round trip; with more staff than
      // are read at once, the page's own roles in a second.
      [rows, roles, total] = await this.uow.readTogether([
        this.users.unsearchedPageRead({ ...order, skip: page.skip, limit: page.limit }),
        this.staff.everyRoleRead(),
        this.analytics.customerCountRead(),
      ] as const);
      roles ??= await this.staff.rolesOf(rows.map((u) => u.user_id));
    }
    return {
      users: rows.map((u) => ({
        user_id: u.user_id,
        name: u.name,
        last_name: u.last_name,
        email: u.email,
        phone: u.phone,
        value: u.value,
        staff_role: roles.get(u.user_id) ?? null,
        createdAt: u.createdAt,
      })),
      total,
      page: page.page,
      limit: page.limit,
    };
  }

  async get(user_id: number): Promise<CustomerResponse> {
    const user = await this.users.findById(user_id);
    if (!user) throw notFound('User', 'user_not_found');
    const [view, balance, organizations] = await Promise.all([
      this.users.toPublicUser(user_id),
      this.words.view(user_id),
      this.organizations.membershipsOf(user_id, CUSTOMER_ORGANIZATIONS_SHOWN),
    ]);
    return { user: view, balance, organizations };
  }

  ledger(user_id: number, query: { page?: number; limit?: number }) {
    return this.words.ledger(user_id, query);
  }

  /** Creates the account with a random password, then emails a password recovery link to the address. */
  async create(input: CreateCustomerDto): Promise<CreatedCustomerResponse> {
    const user = await this.users.createUser({
      name: input.name,
      last_name: input.last_name,
      email: input.email,
      phone: input.phone ?? null,
    });
    await this.audit.record('customer.created', { target_user_id: user.user_id });
    let recovery_sent = true;
    try {
      await this.auth.sendPasswordReset(user.email);
    } catch {
      // The account exists either way; staff can send the recovery again from the customer's screen.
      recovery_sent = false;
    }
    return { user: await this.users.toPublicUser(user.user_id), recovery_sent };
  }

  /** Staff change a customer's profile; a staff account is changed in Staff, not here. */
  async update(user_id: number, input: UpdateCustomerDto): Promise<CustomerResponse> {
    await this.customerOnly(user_id);
    const changed = await this.users.updateByStaff(user_id, input);
    if (changed.length > 0) {
      await this.audit.record('customer.updated', { target_user_id: user_id, details: { fields: changed } });
    }
    return this.get(user_id);
  }

  /**
   * Deletes a customer: their data and stored files go; their purchases and invoices stay for the books without
   * an owner. A subscription that still renews must be cancelled first (the provider would keep charging).
   */
  async remove(user_id: number): Promise<void> {
    await this.customerOnly(user_id);
    await this.users.deleteAccount(user_id, async (tx) => {
      if (await this.staff.roleOf(user_id, tx)) throw staffProtected();
      if (await this.purchases.hasRenewingSubscription(user_id, tx)) {
        throw conflict(CUSTOMER_MESSAGES.subscriptionRenewing, 'subscription_renewing');
      }
      const kept = await this.purchases.anonymiseOwner(user_id, tx);
      await this.audit.record(
        'customer.deleted',
        {
          target_user_id: user_id,
          details: { purchases_kept: kept.purchases, invoices_kept: kept.invoices },
        },
        tx,
      );
    });
  }

  /** A staff admin opens a customer's account: a one-time code for a short session as them, in a new tab. */
  async impersonate(admin: Principal, user_id: number): Promise<ImpersonationCodeResponse> {
    if (admin.impersonator) throw forbidden(CUSTOMER_MESSAGES.viewerCannotOpen, 'forbidden');
    await this.customerOnly(user_id);
    return this.auth.issueImpersonationCode(admin.user_id, user_id);
  }

  /** 404 for no such account; 403 for a staff account (staff are managed in Staff). */
  private async customerOnly(user_id: number): Promise<void> {
    const [user, role] = await Promise.all([this.users.findById(user_id), this.staff.roleOf(user_id)]);
    if (!user) throw notFound('User', 'user_not_found');
    if (role) throw staffProtected();
  }
}

function staffProtected() {
  return forbidden(CUSTOMER_MESSAGES.staffProtected, 'staff_account_protected');
}
