import { Param, PipeTransform } from '@nestjs/common';
import { badInput } from '../errors/domain-error';

/** PostgreSQL `int` ceiling: larger ids cannot exist, and passing one to the database would fail as a 500. */
export const MAX_ID = 2_147_483_647;

const invalidId = () => badInput('The id must be a whole number.', 'invalid_id');

/** Path ids are whole numbers in the int range; anything else is the caller's mistake (400), not a missing record. */
export class IdPipe implements PipeTransform<unknown, number> {
  /** Usually the raw path text; a number when the global validation pipe has already converted it. */
  transform(value: unknown): number {
    const text = typeof value === 'number' ? String(value) : value;
    if (typeof text !== 'string' || !/^\d{1,10}$/.test(text)) throw invalidId();
    const id = Number(text);
    if (id < 1 || id > MAX_ID) throw invalidId();
    return id;
  }
}

/** A path id: `@IdParam('conversation_id') id: number`. */
export const IdParam = (name: string): ParameterDecorator => Param(name, new IdPipe());
