import { Injectable } from '@nestjs/common';
import { ADMIN_USERS_PAGE_SIZE } from '@avatar-studio/contracts';
import { notFound } from '../../common/errors/domain-error';
import { toPage } from '../../common/http/pagination';
import { AuditService } from '../audit/audit.service';
import { AuthService } from '../auth/auth.service';
import { StaffService } from '../staff/staff.service';
import { UsersService } from '../users/users.service';
import { WordsService } from '../words/words.service';
import type {
  CreateCustomerDto,
  CreatedCustomerResponse,
  CustomerPageResponse,
  CustomerResponse,
  CustomersQuery,
} from './dto/customers.dto';

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
  ) {}

  async list(query: CustomersQuery): Promise<CustomerPageResponse> {
    const page = toPage(query, ADMIN_USERS_PAGE_SIZE);
    const { rows, total } = await this.users.adminPage({
      text: query.query,
      field: query.field ?? 'all',
      sort: query.sort ?? 'user_id',
      direction: query.direction ?? 'desc',
      skip: page.skip,
      limit: page.limit,
    });
    const roles = await this.staff.rolesOf(rows.map((u) => u.user_id));
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
    const [view, balance] = await Promise.all([this.users.toPublicUser(user_id), this.words.view(user_id)]);
    return { user: view, balance };
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
}
