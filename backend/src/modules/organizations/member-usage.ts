import { Injectable } from '@nestjs/common';
import { PurchasesService } from '../purchases/purchases.service';
import { WordsService } from '../words/words.service';

export interface UsageRange {
  /** Inclusive. */
  from: Date;
  /** Exclusive. */
  to: Date;
}

/**
 * Per-member usage figures of the organization users list, in one place so the word ledger can take over
 * without touching the list itself.
 */
@Injectable()
export class MemberUsage {
  constructor(
    private readonly words: WordsService,
    private readonly purchases: PurchasesService,
  ) {}

  /** USD each user paid in the organization within the range (purchases and renewals, less refunds), by user_id. */
  async lifetimeValue(
    organizationId: number,
    userIds: number[],
    range: UsageRange,
  ): Promise<Map<number, number>> {
    const cents = await this.purchases.paidInOrganization(userIds, organizationId, range);
    return new Map([...cents].map(([user_id, amount]) => [user_id, amount / 100]));
  }

  /**
   * Words each user spent in the organization within the range (debits recorded with that organization as their
   * scope), by user_id; a member who spent none is absent from the map.
   */
  totalWords(organizationId: number, userIds: number[], range: UsageRange): Promise<Map<number, number>> {
    return this.words.usage(userIds, { from: range.from, to: range.to, organization_id: organizationId });
  }

  /**
   * The member's last use of the organization when it falls within the range, else null. Only the latest use is
   * recorded (user_organizations.last_use), so an earlier use inside a past range is not known.
   */
  lastUsed(lastUse: Date | null, range: UsageRange): Date | null {
    if (!lastUse) return null;
    return lastUse >= range.from && lastUse < range.to ? lastUse : null;
  }
}
