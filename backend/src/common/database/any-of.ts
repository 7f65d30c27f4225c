import { FindOperator, Raw } from 'typeorm';

let named = 0;

/**
 * A find condition `column = ANY($n)` with the values as one array parameter. TypeORM's In() writes one
 * parameter per value and its query builder slows down with each (a page of 100 ids costs more to build than
 * to run).
 */
export function anyOf<T extends number | string>(values: readonly T[]): FindOperator<T> {
  // Unique names, so two conditions in one query keep their own values.
  const name = `any_of_${(named = (named + 1) % 1_000_000)}`;
  return Raw((column) => `${column} = ANY(:${name})`, { [name]: [...values] }) as FindOperator<T>;
}
