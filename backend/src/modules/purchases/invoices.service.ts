import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  INVOICE_DEFAULT_STATUS,
  isPaymentMethodId,
  BILLING_MESSAGES,
  type InvoiceStatus,
} from '@avatar-studio/contracts';
import type { Principal } from '../../common/auth/principal';
import { badInput, notFound } from '../../common/errors/domain-error';
import { toPage } from '../../common/http/pagination';
import { UnitOfWork } from '../../database/unit-of-work';
import { currentAuditActor } from '../audit/audit-context';
import { AuditService } from '../audit/audit.service';
import { UsersService } from '../users/users.service';
import type { Invoice } from './invoice.entity';
import { InvoicesRepository, type InvoiceFields } from './invoices.repository';
import { PurchasesRepository } from './purchases.repository';

const INVOICES_PAGE_DEFAULT = 20;
const USER_SEARCH_LIMIT = 200;
const invoiceNotFound = () => notFound('Invoice', 'invoice_not_found');
/** Statuses that count as paid (they add to the user's lifetime value). */
const PAID: InvoiceStatus[] = ['completed', 'active'];

export interface InvoiceInput {
  user_id?: number;
  purchase_id?: number | null;
  amount?: number;
  payment_method_id?: number | null;
  status?: InvoiceStatus;
  expiration_date?: Date | null;
  description?: string | null;
}

/** Invoices: the customer's own, the staff's list and form, and their payment (checkout or marked by staff). */
@Injectable()
export class InvoicesService {
  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly purchases: PurchasesRepository,
    private readonly users: UsersService,
    private readonly audit: AuditService,
    private readonly transactions: UnitOfWork,
  ) {}

  async listOwn(principal: Principal, query: { query?: string; page?: number; limit?: number }) {
    const page = toPage(query, INVOICES_PAGE_DEFAULT);
    const { rows, total } = await this.invoices.page(
      { user_id: principal.user_id, query: query.query },
      page,
    );
    return { invoices: rows, total, page: page.page, limit: page.limit };
  }

  async listAdmin(query: {
    query?: string;
    page?: number;
    limit?: number;
    user_id?: number;
    status?: string;
  }) {
    const page = toPage(query, INVOICES_PAGE_DEFAULT);
    const text = query.query?.trim();
    const user_ids = text ? await this.users.searchIds(text, USER_SEARCH_LIMIT) : undefined;
    const { rows, total } = await this.invoices.page(
      { user_id: query.user_id, status: query.status, query: text, user_ids },
      page,
    );
    const names = await this.users.summaries(rows.map((r) => r.user_id));
    return {
      invoices: rows.map((r) => ({ ...r, user: (r.user_id !== null && names.get(r.user_id)) || null })),
      total,
      page: page.page,
      limit: page.limit,
    };
  }

  /** The invoice a provider's payment paid (payments look up refunds and disputes by it). */
  findByProviderPayment(
    reference:
      { stripe_payment_intent_id: string } | { stripe_invoice_id: string } | { paypal_capture_id: string },
    manager?: EntityManager,
  ): Promise<Invoice | null> {
    if ('stripe_payment_intent_id' in reference)
      return this.invoices.findByStripePaymentIntentId(reference.stripe_payment_intent_id, manager);
    if ('stripe_invoice_id' in reference)
      return this.invoices.findByStripeInvoiceId(reference.stripe_invoice_id, manager);
    return this.invoices.findByPayPalCaptureId(reference.paypal_capture_id, manager);
  }

  /** The caller's own invoice that can be paid now (pending or failed). */
  async getForPayment(invoice_id: number, principal: Principal): Promise<Invoice> {
    const invoice = await this.invoices.findById(invoice_id);
    if (!invoice || invoice.user_id !== principal.user_id || !['pending', 'failed'].includes(invoice.status))
      throw invoiceNotFound();
    return invoice;
  }

  async create(input: InvoiceInput): Promise<Invoice> {
    if (!input.user_id || !(await this.users.findById(input.user_id)))
      throw notFound('User', 'user_not_found');
    await this.checkPurchase(input.purchase_id, input.user_id);
    this.checkMethod(input.payment_method_id);
    return this.transactions.run(async (m) => {
      const status = input.status ?? INVOICE_DEFAULT_STATUS;
      const invoice = await this.invoices.insert(
        {
          user_id: input.user_id!,
          purchase_id: input.purchase_id ?? null,
          amount: input.amount ?? 0,
          payment_method_id: input.payment_method_id ?? null,
          status,
          expiration_date: input.expiration_date ?? null,
          description: input.description ?? null,
          created_by: currentUser(),
          paid_at: PAID.includes(status) ? new Date() : null,
        },
        m,
      );
      if (PAID.includes(status)) await this.users.addLifetimeValue(invoice.user_id, invoice.amount, m);
      await this.audit.record(
        'invoice.created',
        {
          target_user_id: invoice.user_id,
          target_type: 'invoice',
          target_id: invoice.invoice_id,
          details: { status, amount: invoice.amount },
        },
        m,
      );
      return invoice;
    });
  }

  async update(invoice_id: number, input: InvoiceInput): Promise<Invoice> {
    this.checkMethod(input.payment_method_id);
    return this.transactions.run(async (m) => {
      const before = await this.invoices.findByIdForUpdate(invoice_id, m);
      if (!before) throw invoiceNotFound();
      if (input.user_id !== undefined && input.user_id !== before.user_id)
        throw badInput('An invoice cannot move to another user.', 'bad_input');
      if (input.purchase_id !== undefined) await this.checkPurchase(input.purchase_id, before.user_id);
      const changes: Partial<InvoiceFields> = {};
      for (const key of [
        'purchase_id',
        'amount',
        'payment_method_id',
        'status',
        'expiration_date',
        'description',
      ] as const)
        if (input[key] !== undefined) (changes as Record<string, unknown>)[key] = input[key];
      const wasPaid = PAID.includes(before.status);
      const status = changes.status ?? before.status;
      const amount = changes.amount ?? before.amount;
      const isPaid = PAID.includes(status);
      // Lifetime value follows what is paid: added when it becomes paid, taken back when it stops, adjusted on a change.
      const delta = (isPaid ? amount : 0) - (wasPaid ? before.amount : 0);
      if (isPaid && !wasPaid) changes.paid_at = new Date();
      await this.invoices.update(invoice_id, changes, m);
      await this.users.addLifetimeValue(before.user_id, delta, m);
      if (status !== before.status)
        await this.audit.record(
          'invoice.status_changed',
          {
            target_user_id: before.user_id,
            target_type: 'invoice',
            target_id: invoice_id,
            details: { from: before.status, to: status },
          },
          m,
        );
      const other = Object.keys(changes).filter((k) => k !== 'status' && k !== 'paid_at');
      if (other.length)
        await this.audit.record(
          'invoice.updated',
          {
            target_user_id: before.user_id,
            target_type: 'invoice',
            target_id: invoice_id,
            details: { changed: other },
          },
          m,
        );
      return (await this.invoices.findById(invoice_id, m))!;
    });
  }

  /** Paid through checkout (or by staff): completed, lifetime value raised in the same transaction. Idempotent. */
  async markPaid(
    invoice_id: number,
    payment: {
      payment_method_id: number;
      purchase_id?: number | null;
      stripe_payment_intent_id?: string;
      paypal_capture_id?: string;
      paid_at?: Date;
    },
    manager?: EntityManager,
  ): Promise<Invoice> {
    return this.inTransaction(manager, async (m) => {
      const before = await this.invoices.findByIdForUpdate(invoice_id, m);
      if (!before) throw invoiceNotFound();
      if (PAID.includes(before.status)) return before;
      const changes: Partial<InvoiceFields> = {
        status: 'completed',
        paid_at: payment.paid_at ?? new Date(),
        payment_method_id: payment.payment_method_id,
        ...(payment.purchase_id ? { purchase_id: payment.purchase_id } : {}),
        ...(payment.stripe_payment_intent_id
          ? { stripe_payment_intent_id: payment.stripe_payment_intent_id }
          : {}),
        ...(payment.paypal_capture_id ? { paypal_capture_id: payment.paypal_capture_id } : {}),
      };
      await this.invoices.update(invoice_id, changes, m);
      await this.users.addLifetimeValue(before.user_id, before.amount, m);
      await this.audit.record(
        'invoice.status_changed',
        {
          target_user_id: before.user_id,
          target_type: 'invoice',
          target_id: invoice_id,
          details: { from: before.status, to: 'completed' },
        },
        m,
      );
      return { ...before, ...changes } as Invoice;
    });
  }

  async markFailed(invoice_id: number, manager?: EntityManager): Promise<Invoice> {
    return this.inTransaction(manager, async (m) => {
      const before = await this.invoices.findByIdForUpdate(invoice_id, m);
      if (!before) throw invoiceNotFound();
      if (before.status !== 'pending') return before;
      await this.invoices.update(invoice_id, { status: 'failed' }, m);
      await this.audit.record(
        'invoice.status_changed',
        {
          target_user_id: before.user_id,
          target_type: 'invoice',
          target_id: invoice_id,
          details: { from: 'pending', to: 'failed' },
        },
        m,
      );
      return { ...before, status: 'failed' };
    });
  }

  private async checkPurchase(purchase_id: number | null | undefined, user_id: number | null): Promise<void> {
    if (purchase_id === null || purchase_id === undefined) return;
    const purchase = await this.purchases.findById(purchase_id);
    if (!purchase || purchase.user_id !== user_id) throw notFound('Purchase', 'purchase_not_found');
  }

  private checkMethod(payment_method_id: number | null | undefined): void {
    if (
      payment_method_id !== undefined &&
      payment_method_id !== null &&
      !isPaymentMethodId(payment_method_id)
    )
      throw badInput(BILLING_MESSAGES.invalidPaymentMethod, 'invalid_payment_method');
  }

  private inTransaction<T>(
    manager: EntityManager | undefined,
    work: (m: EntityManager) => Promise<T>,
  ): Promise<T> {
    // A manager passed in is the caller's open transaction: the work joins it instead of opening its own.
    return manager ? work(manager) : this.transactions.run(work);
  }
}

/** The staff member serving the request (the audit context already knows it). */
function currentUser(): number | null {
  return currentAuditActor().principal?.user_id ?? null;
}
