import { useDebouncedValue as useMantineDebouncedValue } from '@mantine/hooks';

/** Searches debounce 500 ms. */
export const SEARCH_DEBOUNCE_MS = 500;

/** The value after it has stopped changing for `ms` (500 ms by default). */
export function useDebouncedValue<T>(value: T, ms: number = SEARCH_DEBOUNCE_MS): T {
  return useMantineDebouncedValue(value, ms)[0];
}
