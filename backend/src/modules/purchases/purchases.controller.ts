import { Body, Controller, Get, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BILLING_MESSAGES } from '@avatar-studio/contracts';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { IdParam } from '../../common/http/id-param';
import {
  AdminInvoicesQuery,
  AdminPurchaseInputDto,
  AdminPurchasesQuery,
  AdminPurchaseUpdateDto,
  CancelPurchaseDto,
  GiveAccessDto,
  InvoiceInputDto,
  InvoicePageResponse,
  InvoiceResponse,
  InvoiceUpdateDto,
  OwnInvoicesQuery,
  OwnPurchasesQuery,
  PurchasePageResponse,
  PurchaseResponse,
  RevokeAccessDto,
} from './dto/purchases.dto';
import { InvoicesService } from './invoices.service';
import { adminTransitionError } from './purchase-rules';
import { PurchasesService } from './purchases.service';

@ApiTags('Purchases')
@Controller('purchases')
export class PurchasesController {
  constructor(private readonly purchases: PurchasesService) {}

  @Get()
  @Authenticated()
  @ApiOperation({ summary: "The caller's purchases, newest first" })
  @ApiOkResponse({ type: PurchasePageResponse })
  listOwn(@CurrentUser() me: Principal, @Query() query: OwnPurchasesQuery): Promise<PurchasePageResponse> {
    return this.purchases.listOwn(me, query);
  }

  @Get('admin')
  @Authenticated({ staff: 'manager' })
  @ApiOperation({
    summary: 'Purchases for the back office: search, dates, status group, type, product; 12 a page',
  })
  @ApiOkResponse({ type: PurchasePageResponse })
  listAdmin(@Query() query: AdminPurchasesQuery): Promise<PurchasePageResponse> {
    return this.purchases.listAdmin(query);
  }

  @Post('admin')
  @Authenticated({ staff: 'admin' })
  @ApiOperation({
    summary: 'Record a purchase for a user (staff admins); active or completed grants access at once',
  })
  @ApiCreatedResponse({ type: PurchaseResponse })
  async adminCreate(
    @CurrentUser() me: Principal,
    @Body() body: AdminPurchaseInputDto,
  ): Promise<PurchaseResponse> {
    const purchase = await this.purchases.adminCreate(me, body);
    return { purchase: (await this.purchases.withNames([purchase], true))[0] };
  }

  @Put('admin')
  @Authenticated({ staff: 'admin' })
  @ApiOperation({
    summary:
      'Change a purchase (staff admins): once cancelled or revoked only those two remain; cancel keeps access until expiry, revoke ends it now (and its provider subscription, in a job)',
  })
  @ApiOkResponse({ type: PurchaseResponse })
  async adminUpdate(
    @CurrentUser() me: Principal,
    @Body() body: AdminPurchaseUpdateDto,
  ): Promise<PurchaseResponse> {
    const purchase = await this.purchases.adminUpdate(me, body, adminTransitionError);
    return { purchase: (await this.purchases.withNames([purchase], true))[0] };
  }

  @Post('cancel/:purchase_id')
  @Authenticated()
  @ApiOperation({
    summary:
      "Cancel the caller's active subscription at the period's end (reason of 10+ characters: 'You must include a cancel reason.')",
  })
  @ApiCreatedResponse({ type: PurchaseResponse })
  async cancel(
    @CurrentUser() me: Principal,
    @IdParam('purchase_id') purchase_id: number,
    @Body() body: CancelPurchaseDto,
  ): Promise<PurchaseResponse> {
    const purchase = await this.purchases.cancelOwn(purchase_id, me, body.cancel_reason);
    return { purchase: (await this.purchases.withNames([purchase], false))[0] };
  }

  @Get(':purchase_id')
  @Authenticated()
  @ApiOperation({ summary: 'One purchase: the caller’s own, or any for staff' })
  @ApiOkResponse({ type: PurchaseResponse })
  async one(
    @CurrentUser() me: Principal,
    @IdParam('purchase_id') purchase_id: number,
  ): Promise<PurchaseResponse> {
    const purchase = await this.purchases.getVisible(purchase_id, me);
    return { purchase: (await this.purchases.withNames([purchase], false))[0] };
  }
}

@ApiTags('Purchases')
@Controller('users')
export class AccessController {
  constructor(private readonly purchases: PurchasesService) {}

  @Post('giveAccess')
  @Authenticated({ staff: 'admin' })
  @ApiOperation({
    summary: 'Give a user access to a product (gift or paid): an active purchase and its words',
  })
  @ApiCreatedResponse({ type: PurchaseResponse })
  async giveAccess(@CurrentUser() me: Principal, @Body() body: GiveAccessDto): Promise<PurchaseResponse> {
    const purchase = await this.purchases.giveAccess(me, body);
    return { purchase: (await this.purchases.withNames([purchase], true))[0] };
  }

  @Put('revokeAccess')
  @Authenticated({ staff: 'admin' })
  @ApiOperation({
    summary:
      'Revoke a purchase: access and its words end now; a renewing subscription is ended at Stripe or PayPal in a retried job',
  })
  @ApiOkResponse({ type: PurchaseResponse })
  async revokeAccess(@CurrentUser() me: Principal, @Body() body: RevokeAccessDto): Promise<PurchaseResponse> {
    const purchase = await this.purchases.adminUpdate(
      me,
      { purchase_id: body.purchase_id, status: 'revoked', cancel_reason: body.reason },
      adminTransitionError,
    );
    return { purchase: (await this.purchases.withNames([purchase], true))[0] };
  }
}

@ApiTags('Invoices')
@Controller('invoices')
export class InvoicesController {
  constructor(private readonly invoices: InvoicesService) {}

  @Get()
  @Authenticated()
  @ApiOperation({ summary: "The caller's invoices (query: id or description)" })
  @ApiOkResponse({ type: InvoicePageResponse })
  listOwn(@CurrentUser() me: Principal, @Query() query: OwnInvoicesQuery): Promise<InvoicePageResponse> {
    return this.invoices.listOwn(me, query);
  }

  @Get('admin')
  @Authenticated({ staff: 'manager' })
  @ApiOperation({ summary: 'Invoices for the back office (query: id, description, customer name or email)' })
  @ApiOkResponse({ type: InvoicePageResponse })
  listAdmin(@Query() query: AdminInvoicesQuery): Promise<InvoicePageResponse> {
    return this.invoices.listAdmin(query);
  }

  @Post('admin')
  @Authenticated({ staff: 'admin' })
  @ApiOperation({
    summary: "Create an invoice (staff admins); new invoices are pending; answers 'Cargo guardado.'",
  })
  @ApiCreatedResponse({ type: InvoiceResponse })
  async create(@Body() body: InvoiceInputDto): Promise<InvoiceResponse> {
    return { invoice: await this.invoices.create(body), message: BILLING_MESSAGES.invoiceSaved };
  }

  @Put('admin')
  @Authenticated({ staff: 'admin' })
  @ApiOperation({
    summary:
      "Change an invoice (staff admins); marking it completed counts it as paid; answers 'Cargo guardado.'",
  })
  @ApiOkResponse({ type: InvoiceResponse })
  async update(@Body() body: InvoiceUpdateDto): Promise<InvoiceResponse> {
    const { invoice_id, ...changes } = body;
    return {
      invoice: await this.invoices.update(invoice_id, changes),
      message: BILLING_MESSAGES.invoiceSaved,
    };
  }
}
