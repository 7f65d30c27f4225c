import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { IdParam } from '../../common/http/id-param';
import { ScopeQuery } from '../../common/http/pagination';
import { WordLedgerPageResponse, WordLedgerQuery } from '../words/dto/words.dto';
import { CustomersService } from './customers.service';
import {
  CreateCustomerDto,
  CreatedCustomerResponse,
  CustomerPageResponse,
  CustomerResponse,
  CustomersQuery,
  ImpersonationCodeResponse,
  UpdateCustomerDto,
} from './dto/customers.dto';

/** The back office's customer calls, under the spec's /users paths. */
@ApiTags('customers')
@Controller('users')
export class CustomersController {
  constructor(private readonly customers: CustomersService) {}

  @Get('admin/all')
  @Authenticated({ staff: 'manager' })
  @ApiOperation({
    summary: 'Customers for staff: search in all fields or one, sortable, 50 per page',
  })
  @ApiOkResponse({ type: CustomerPageResponse })
  list(@Query() query: CustomersQuery): Promise<CustomerPageResponse> {
    return this.customers.list(query);
  }

  @Post('admin/user')
  @Authenticated({ staff: 'admin' })
  @ApiOperation({
    summary: 'Create a customer without sign-up (staff admins); a password recovery email follows',
  })
  @ApiCreatedResponse({ type: CreatedCustomerResponse })
  create(@Query() _query: ScopeQuery, @Body() body: CreateCustomerDto): Promise<CreatedCustomerResponse> {
    return this.customers.create(body);
  }

  @Get(':user_id/admin')
  @Authenticated({ staff: 'manager' })
  @ApiOperation({ summary: 'One customer with their word balance (staff)' })
  @ApiOkResponse({ type: CustomerResponse })
  one(@IdParam('user_id') user_id: number, @Query() _query: ScopeQuery): Promise<CustomerResponse> {
    return this.customers.get(user_id);
  }

  @Get(':user_id/admin/ledger')
  @Authenticated({ staff: 'manager' })
  @ApiOperation({ summary: "A customer's word grants and debits, newest first (staff)" })
  @ApiOkResponse({ type: WordLedgerPageResponse })
  ledger(
    @IdParam('user_id') user_id: number,
    @Query() query: WordLedgerQuery,
  ): Promise<WordLedgerPageResponse> {
    return this.customers.ledger(user_id, query) as Promise<WordLedgerPageResponse>;
  }

  @Put(':user_id/admin')
  @Authenticated({ staff: 'admin' })
  @ApiOperation({ summary: "Staff admins change a customer's profile fields (send only what changes)" })
  @ApiOkResponse({ type: CustomerResponse })
  @ApiForbiddenResponse({ description: 'staff_account_protected: staff accounts are managed in Staff' })
  @ApiNotFoundResponse({ description: 'user_not_found' })
  update(
    @IdParam('user_id') user_id: number,
    @Query() _query: ScopeQuery,
    @Body() body: UpdateCustomerDto,
  ): Promise<CustomerResponse> {
    return this.customers.update(user_id, body);
  }

  @Delete('admin/:user_id')
  @Authenticated({ staff: 'admin' })
  @HttpCode(204)
  @ApiOperation({
    summary:
      'Staff admins delete a customer: their data and stored files go, their purchases and invoices stay anonymised',
  })
  @ApiNoContentResponse()
  @ApiForbiddenResponse({ description: 'staff_account_protected' })
  @ApiConflictResponse({ description: 'subscription_renewing: cancel the subscription first' })
  @ApiNotFoundResponse({ description: 'user_not_found' })
  async remove(@IdParam('user_id') user_id: number, @Query() _query: ScopeQuery): Promise<void> {
    await this.customers.remove(user_id);
  }

  @Post(':user_id/admin/impersonation')
  @Authenticated({ staff: 'admin' })
  @ApiOperation({
    summary:
      "Staff admins open a customer's account: a one-time code (about a minute) for a 15-minute session as them",
  })
  @ApiCreatedResponse({ type: ImpersonationCodeResponse })
  @ApiForbiddenResponse({ description: 'staff_account_protected' })
  @ApiNotFoundResponse({ description: 'user_not_found' })
  impersonate(
    @CurrentUser() me: Principal,
    @IdParam('user_id') user_id: number,
    @Query() _query: ScopeQuery,
  ): Promise<ImpersonationCodeResponse> {
    return this.customers.impersonate(me, user_id);
  }
}
