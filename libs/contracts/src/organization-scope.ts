/**
 * A staff admin who is not a member of an organization may act in its scope (`?organization_id=`) only with this
 * header naming the same organization id, sent once they confirmed it on screen: a link with `?org=<slug>`
 * alone never moves staff into another organization's scope.
 */
export const STAFF_SCOPE_CONFIRM_HEADER = 'x-staff-scope-confirm';
