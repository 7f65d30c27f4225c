/** The back-office customer list as both sides speak it: page size, search fields and sortable columns. */

/** Customers per page of the admin list. */
export const ADMIN_USERS_PAGE_SIZE = 50;
/** The admin list's pager shows at most this many page buttons. */
export const ADMIN_USERS_PAGER_BUTTONS = 5;

/** Where the customer search looks: every field, or one. */
export const CUSTOMER_SEARCH_FIELDS = ['all', 'name', 'last_name', 'email', 'phone'] as const;
export type CustomerSearchField = (typeof CUSTOMER_SEARCH_FIELDS)[number];

/** The columns the customer list sorts by. */
export const CUSTOMER_SORTS = [
  'user_id',
  'name',
  'last_name',
  'email',
  'phone',
  'value',
  'createdAt',
] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];
