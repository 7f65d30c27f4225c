/** Campaigns and groups as both sides speak them: sorts, resource kinds, limits and the spec's messages. */

/** Campaign list orders: Last Created, Last Used, A-Z, Z-A. */
export const CAMPAIGN_SORTS = ['createdAt_desc', 'updatedAt_desc', 'name_asc', 'name_desc'] as const;
export type CampaignSort = (typeof CAMPAIGN_SORTS)[number];

/** What a campaign groups. The resources list is asked for in the plural (`?resources=documents`). */
export const CAMPAIGN_RESOURCE_TYPES = ['document', 'template'] as const;
export type CampaignResourceType = (typeof CAMPAIGN_RESOURCE_TYPES)[number];
export const CAMPAIGN_RESOURCE_LISTS = ['documents', 'templates'] as const;
export type CampaignResourceList = (typeof CAMPAIGN_RESOURCE_LISTS)[number];

export const MAX_CAMPAIGN_NAME = 200;
export const MAX_CAMPAIGN_DESCRIPTION = 2000;
/** Documents plus templates one campaign may hold. */
export const MAX_CAMPAIGN_RESOURCES = 500;
/** Users plus groups one campaign may be given to. */
export const MAX_CAMPAIGN_GRANTS = 1000;
export const MAX_GROUP_NAME = 100;
export const MAX_GROUP_USERS = 1000;

export const CAMPAIGN_MESSAGES = {
  selectOrganization: 'Please select an organization',
  selectCampaign: 'Please select a campaign',
  nameRequired: 'Please add a name to your campaign',
  notAMember: 'That user is not a member of this organization.',
  userOrGroup: 'Send either user_id or group_id.',
  tooManyResources: `A campaign holds at most ${MAX_CAMPAIGN_RESOURCES} documents and templates.`,
  tooManyGrants: `A campaign can be given to at most ${MAX_CAMPAIGN_GRANTS} users and groups.`,
  groupNameRequired: 'Please add a name to your group',
  tooManyGroupUsers: `A group holds at most ${MAX_GROUP_USERS} users.`,
} as const;

export const CAMPAIGN_ERROR_CODES = [
  'campaign_not_found',
  'campaign_required',
  'group_not_found',
  'not_organization_member',
  'too_many_resources',
  'too_many_grants',
] as const;
