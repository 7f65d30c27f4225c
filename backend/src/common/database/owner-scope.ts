import type { ObjectLiteral, SelectQueryBuilder, UpdateQueryBuilder, DeleteQueryBuilder } from 'typeorm';
import type { Principal } from '../auth/principal';

/** The owner and scope a row must have to be the caller's in the scope chosen (Personal is organization 0). */
export interface OwnerScope {
  user_id: number;
  organization_id: number;
}

export function scopeOf(me: Principal): OwnerScope {
  return { user_id: me.user_id, organization_id: me.org?.organization_id ?? 0 };
}

/**
 * Restricts a query to rows the caller created in the current scope. Conversations, documents and user
 * workflows belong to their creator and to the scope they were created in, so another user's row, or the
 * caller's own seen from another scope, is not found. Personal is written COALESCE(organization_id, 0) to match
 * the tables' scope indexes: with `organization_id IS NULL` PostgreSQL cannot read a list in index order.
 * `alias` is the query's alias of the table (empty for an UPDATE or DELETE, whose columns go unqualified).
 */
export function whereOwned<
  Q extends
    SelectQueryBuilder<ObjectLiteral> | UpdateQueryBuilder<ObjectLiteral> | DeleteQueryBuilder<ObjectLiteral>,
>(qb: Q, scope: OwnerScope, alias = ''): Q {
  const col = (name: string) => (alias ? `${alias}.${name}` : name);
  qb.andWhere(`${col('user_id')} = :scopeUser AND COALESCE(${col('organization_id')}, 0) = :scopeOrg`, {
    scopeUser: scope.user_id,
    scopeOrg: scope.organization_id,
  });
  return qb;
}
