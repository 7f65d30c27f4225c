import { Foundation1763780000000 } from './1763780000000-Foundation';
import { Words1763790000000 } from './1763790000000-Words';

/** Every migration, oldest first. Add new ones at the end; never edit one that has shipped. */
export const migrations = [Foundation1763780000000, Words1763790000000];
