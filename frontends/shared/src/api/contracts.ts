/**
 * Named types for the screens, and hand-written request/response types for routes documented in DESIGN.md
 * whose controllers have not landed in backend/openapi.json yet. `ApiPaths` (paths.ts) lets the generated schema win for every path it already
 * has, so this file can shrink (and finally go) as `npm run openapi` regenerates schema.ts.
 * Screen engineers: add the routes you need here in the same shape; do not write fetch wrappers.
 */
import type { components } from './schema';

export interface ErrorBody {
  statusCode: number;
  message: string;
  error: string;
  code: string;
  errors?: { field: string; message: string }[];
}

type Schemas = components['schemas'];
/** Every schema of the generated OpenAPI document, by name (e.g. ApiSchemas['ConversationDto']). */
export type ApiSchemas = Schemas;

// Aliases of the generated schema, named as the screens talk about them.
export type User = Schemas['PublicUserDto'];
export type Staff = Schemas['UserStaffDto'];
export type SessionPair = Schemas['AuthSessionDto'];
export type TokenPair = Schemas['TokenPairDto'];
export type ConfigEntry = Schemas['ConfigEntryDto'];
export type Organization = Schemas['PublicOrganization'];
/** One of the caller's organizations, with the caller's role in it (user_type). */
export type Membership = Schemas['MyOrganization'];
export type SignupBody = Schemas['SignupDto'];
export type UserType = Schemas['UserTypeView'];

type Json<T> = { content: { 'application/json': T } };
type Responses<T, Status extends number> = {
  [S in Status]: { headers: Record<string, unknown> } & Json<T>;
} & {
  default: { headers: Record<string, unknown> } & Json<ErrorBody>;
};

/** One operation in openapi-typescript's shape. */
export type Op<Res, Body = never, Query = never, Path = never, Status extends number = 200> = {
  parameters: { query?: Query; header?: never; cookie?: never } & ([Path] extends [never]
    ? { path?: never }
    : { path: Path });
  responses: Responses<Res, Status>;
} & ([Body] extends [never] ? { requestBody?: never } : { requestBody: Json<Body> });

interface PathItem {
  parameters: { query?: never; header?: never; path?: never; cookie?: never };
  get?: never;
  put?: never;
  post?: never;
  delete?: never;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
}

type Route<Ops extends Partial<Record<'get' | 'put' | 'post' | 'delete' | 'patch', unknown>>> = Omit<
  PathItem,
  keyof Ops
> &
  Ops;

/** Routes not in backend/openapi.json yet (none for now). Add entries as `'/api/x': Route<{ get: Op<Res> }>`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ContractPaths {}

export type { Route };
