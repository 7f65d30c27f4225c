import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import {
  CAMPAIGN_MESSAGES,
  CAMPAIGN_RESOURCE_LISTS,
  CAMPAIGN_RESOURCE_TYPES,
  CAMPAIGN_SORTS,
  MAX_CAMPAIGN_DESCRIPTION,
  MAX_CAMPAIGN_NAME,
  type CampaignResourceList,
  type CampaignResourceType,
  type CampaignSort,
} from '@avatar-studio/contracts';
import { MAX_ID } from '../../../common/http/id-param';
import { PageInfo, PageQuery, ScopeQuery } from '../../../common/http/pagination';
import { IsNameText, IsOptionalNotNull, Trim } from '../../../common/http/validators';
import { DocumentDto } from '../../documents/dto/document.dto';

const IsId = (name: string, message = `${name} must be a whole number.`): PropertyDecorator => {
  return (target, key) => {
    Type(() => Number)(target, key);
    IsInt({ message })(target, key);
    Min(1, { message })(target, key);
    Max(MAX_ID, { message })(target, key);
  };
};

const IsCampaignName = () =>
  IsNameText(MAX_CAMPAIGN_NAME, {
    required: CAMPAIGN_MESSAGES.nameRequired,
    tooLong: `The name must be ${MAX_CAMPAIGN_NAME} characters or fewer.`,
  });

const DESCRIPTION_TOO_LONG = `The description must be ${MAX_CAMPAIGN_DESCRIPTION} characters or fewer.`;
const THUMBNAIL_NOTE =
  'Multipart field `thumbnail`: an image file (png, jpeg, webp, gif), stored through the files module.';

// ---------------------------------------------------------------- answers

export class CampaignOwner {
  @ApiProperty() user_id: number;
  @ApiProperty() name: string;
  @ApiProperty() last_name: string;
}

export class CampaignUserDto {
  @ApiProperty() user_id: number;
  @ApiProperty() name: string;
  @ApiProperty() last_name: string;
  @ApiProperty() email: string;
}

export class CampaignGroupDto {
  @ApiProperty() group_id: number;
  @ApiProperty() name: string;
}

export class CampaignDto {
  @ApiProperty() campaign_id: number;
  @ApiProperty() organization_id: number;
  @ApiProperty({ type: Number, nullable: true, description: 'The owner' }) user_id: number | null;
  @ApiProperty({ type: CampaignOwner, nullable: true }) user: CampaignOwner | null;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: String, nullable: true, description: 'An uploaded image src' }) thumbnail:
    string | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class CampaignDetailDto extends CampaignDto {
  @ApiProperty({
    type: [CampaignUserDto],
    description: 'Users it is given to (Managers and Admins see them)',
  })
  campaign_users: CampaignUserDto[];

  @ApiProperty({
    type: [CampaignGroupDto],
    description: 'Groups it is given to (Managers and Admins see them)',
  })
  campaign_groups: CampaignGroupDto[];
}

export class CampaignPageResponse extends PageInfo {
  @ApiProperty({ type: [CampaignDto] })
  campaigns: CampaignDto[];
}

export class CampaignResponse {
  @ApiProperty({ type: CampaignDetailDto })
  campaign: CampaignDetailDto;
}

export class CampaignDocumentSummary {
  @ApiProperty() document_id: number;
  @ApiProperty() name: string;
  @ApiProperty() updatedAt: Date;
}

export class CampaignTemplateSummary {
  @ApiProperty() template_id: number;
  @ApiProperty() name: string;
  @ApiProperty() updatedAt: Date;
}

/** One item of a campaign's list: the link, wrapping the document or template it points at. */
export class CampaignResourceItem {
  @ApiProperty() campaign_id: number;
  @ApiProperty() resource_id: number;
  @ApiProperty({ enum: CAMPAIGN_RESOURCE_TYPES }) type: CampaignResourceType;
  @ApiPropertyOptional({ type: CampaignDocumentSummary }) document?: CampaignDocumentSummary;
  @ApiPropertyOptional({ type: CampaignTemplateSummary }) template?: CampaignTemplateSummary;
}

export class CampaignResourcesResponse {
  @ApiProperty({ type: [CampaignResourceItem] })
  resources: CampaignResourceItem[];

  @ApiProperty()
  total: number;
}

export class CampaignResourceLinkResponse {
  @ApiProperty() campaign_id: number;
  @ApiProperty() resource_id: number;
  @ApiProperty({ enum: CAMPAIGN_RESOURCE_TYPES }) type: CampaignResourceType;
}

// ---------------------------------------------------------------- requests

export class CampaignListQuery extends PageQuery {
  @ApiPropertyOptional({ enum: CAMPAIGN_SORTS, default: 'createdAt_desc' })
  @IsOptional()
  @IsIn(CAMPAIGN_SORTS, { message: `sortBy must be one of ${CAMPAIGN_SORTS.join(', ')}.` })
  sortBy?: CampaignSort;
}

export class CampaignResourcesQuery extends ScopeQuery {
  @ApiPropertyOptional({ enum: CAMPAIGN_RESOURCE_LISTS, default: 'documents' })
  @IsOptional()
  @IsIn(CAMPAIGN_RESOURCE_LISTS, { message: 'resources must be documents or templates.' })
  resources?: CampaignResourceList;

  @ApiPropertyOptional({ description: 'Searches the name' })
  @IsOptional()
  @IsString()
  @MaxLength(200, { message: 'The search text is too long.' })
  query?: string;
}

/** Multipart (or JSON) fields of a new campaign; `organization_id` missing: 'Please select an organization'. */
export class CreateCampaignBody {
  @ApiPropertyOptional({ description: "The organization (the caller's current one)" })
  @ValidateIf((_b, v) => v !== undefined && v !== '')
  @IsId('organization_id', CAMPAIGN_MESSAGES.selectOrganization)
  organization_id?: number;

  @ApiProperty({ maxLength: MAX_CAMPAIGN_NAME })
  @Trim()
  @IsCampaignName()
  name: string;

  @ApiPropertyOptional({ maxLength: MAX_CAMPAIGN_DESCRIPTION })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_CAMPAIGN_DESCRIPTION, { message: DESCRIPTION_TOO_LONG })
  description?: string;
}

export class UpdateCampaignBody {
  @ApiProperty()
  @IsId('campaign_id', CAMPAIGN_MESSAGES.selectCampaign)
  campaign_id: number;

  @ApiPropertyOptional({ maxLength: MAX_CAMPAIGN_NAME })
  @IsOptionalNotNull()
  @Trim()
  @IsCampaignName()
  name?: string;

  @ApiPropertyOptional({ maxLength: MAX_CAMPAIGN_DESCRIPTION })
  @IsOptionalNotNull()
  @IsString({ message: 'description must be a text.' })
  @MaxLength(MAX_CAMPAIGN_DESCRIPTION, { message: DESCRIPTION_TOO_LONG })
  description?: string;

  @ApiPropertyOptional({ description: 'Send "" to remove the thumbnail (or a new file in `thumbnail`).' })
  @IsOptional()
  @IsIn([''], { message: 'Send a thumbnail as a file, or "" to remove it.' })
  remove_thumbnail?: '';
}

export const CAMPAIGN_FORM_SCHEMA = (update: boolean) => ({
  type: 'object',
  required: update ? ['campaign_id'] : ['name'],
  properties: {
    ...(update ? { campaign_id: { type: 'integer' } } : { organization_id: { type: 'integer' } }),
    name: { type: 'string', maxLength: MAX_CAMPAIGN_NAME },
    description: { type: 'string', maxLength: MAX_CAMPAIGN_DESCRIPTION },
    ...(update ? { remove_thumbnail: { type: 'string', enum: [''] } } : {}),
    thumbnail: { type: 'string', format: 'binary', description: THUMBNAIL_NOTE },
  },
});

export class CampaignResourceBody {
  @ApiProperty()
  @IsId('resource_id')
  resource_id: number;

  @ApiPropertyOptional({ description: "Missing: 'Please select a campaign'" })
  @ValidateIf((_b, v) => v !== undefined && v !== null)
  @IsId('campaign_id', CAMPAIGN_MESSAGES.selectCampaign)
  campaign_id?: number;

  @ApiProperty({ enum: CAMPAIGN_RESOURCE_TYPES })
  @IsIn(CAMPAIGN_RESOURCE_TYPES, { message: 'type must be document or template.' })
  type: CampaignResourceType;
}

export class CampaignAccessBody {
  @ApiPropertyOptional()
  // Left out: the other one names who; null is refused, not skipped.
  @IsOptionalNotNull()
  @IsId('user_id')
  user_id?: number;

  @ApiPropertyOptional()
  @IsOptionalNotNull()
  @IsId('group_id')
  group_id?: number;
}

/** The campaign a document was opened through. */
export class CampaignReference {
  @ApiProperty()
  campaign_id: number;

  @ApiProperty()
  name: string;

  @ApiProperty()
  organization_id: number;
}

/** GET /documents/{id}/campaigns/{campaign_id}: a document read through a campaign. */
export class CampaignDocumentResponse {
  @ApiProperty({ type: DocumentDto })
  document: DocumentDto;

  @ApiProperty({ type: CampaignReference })
  campaign: CampaignReference;

  @ApiProperty({
    description:
      'True when the caller may change it with PUT /documents: they made it and the current scope is its ' +
      'organization. Everyone else who sees the campaign reads it only.',
  })
  editable: boolean;
}
