/** PostgreSQL NOTIFY channels the app listens on; the migrations that notify name them from here. */

/** A user's id, at the commit of anything that changes who that user's sessions belong to (PrincipalCache). */
export const PRINCIPAL_CHANGED_CHANNEL = 'principal_changed';
