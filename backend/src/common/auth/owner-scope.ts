import type { Principal } from './principal';

/**
 * Rows the caller created in the current scope (Personal, or the organization chosen), as SQL on table alias
 * `alias` with its parameters from `$first` on. Conversations, documents and user workflows belong to their
 * creator and to the scope they were created in, so another user's row, or the caller's own seen from another
 * scope, is not found.
 *
 * Personal is organization 0, written COALESCE(organization_id, 0) = $n to match the tables' scope indexes: with
 * `organization_id IS NULL` PostgreSQL cannot read a list in index order (it sorts every row of the user).
 */
export function ownerScope(me: Principal, alias: string, first: number): { sql: string; params: unknown[] } {
  return {
    sql: `${alias}.user_id = $${first} AND COALESCE(${alias}.organization_id, 0) = $${first + 1}`,
    params: [me.user_id, me.org?.organization_id ?? 0],
  };
}
