import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../../common/auth/authenticated.decorator';
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
}
