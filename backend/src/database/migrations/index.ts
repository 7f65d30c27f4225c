import { Foundation1763780000000 } from './1763780000000-Foundation';

/** Every migration, oldest first. Add new ones at the end; never edit one that has shipped. */
export const migrations = [Foundation1763780000000];
