import type { ContractPaths } from './contracts';
import type { paths as GeneratedPaths } from './schema';

// Header parameters (e.g. the user-agent the auth routes record) are set by the browser, never by screens.
type WithoutHeaders<Operation> = Operation extends { parameters: infer P }
  ? Omit<Operation, 'parameters'> & { parameters: Omit<P, 'header'> & { header?: never } }
  : Operation;
type StripHeaders<Item> = { [M in keyof Item]: M extends 'parameters' ? Item[M] : WithoutHeaders<Item[M]> };

/** Generated paths win; contracts.ts only fills the routes not yet in backend/openapi.json. */
export type ApiPaths = { [P in keyof GeneratedPaths]: StripHeaders<GeneratedPaths[P]> } & Omit<
  ContractPaths,
  keyof GeneratedPaths
>;
