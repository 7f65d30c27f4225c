import { Injectable } from '@nestjs/common';

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
  /**
   * Words each user generated in the organization within the range, by user_id. There is no word ledger yet,
   * so every member has 0 (absent from the map).
   */
  async totalWords(
    _organizationId: number,
    _userIds: number[],
    _range: UsageRange,
  ): Promise<Map<number, number>> {
    return Promise.resolve(new Map<number, number>());
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
