/** The value encoding node-postgres applies to every parameter it sends (not in its published types). */
declare module 'pg/lib/utils' {
  export function prepareValue(value: unknown): unknown;
}
