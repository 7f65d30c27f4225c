import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/**
 * Selects these columns of the query's main alias under their property names, for getRawMany: for lists that
 * are only shown, building an entity per row cost more than the query. The driver still parses each value, so
 * numbers and dates keep their types; a column with a transformer needs an entity.
 */
export function selectColumns<E extends ObjectLiteral>(
  qb: SelectQueryBuilder<E>,
  columns: readonly (keyof E & string)[],
): SelectQueryBuilder<E> {
  const alias = qb.alias;
  qb.select(`${alias}.${columns[0]}`, columns[0]);
  for (const column of columns.slice(1)) qb.addSelect(`${alias}.${column}`, column);
  return qb;
}
