import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  UploadedFile,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { CAMPAIGN_RESOURCE_TYPES, type CampaignResourceType } from '@avatar-studio/contracts';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { badInput } from '../../common/errors/domain-error';
import { IdParam } from '../../common/http/id-param';
import { UserLimit } from '../../common/rate-limit/user-limit.guard';
import { DocumentResponse } from '../documents/dto/document.dto';
import { AcceptsFile, type UploadedBlob } from '../files/upload.interceptor';
import { TemplateResponse } from '../templates/dto/template.dto';
import { CampaignsService } from './campaigns.service';
import {
  CAMPAIGN_FORM_SCHEMA,
  CampaignAccessBody,
  CampaignListQuery,
  CampaignPageResponse,
  CampaignResourceBody,
  CampaignResourceLinkResponse,
  CampaignResourcesQuery,
  CampaignResourcesResponse,
  CampaignResponse,
  CreateCampaignBody,
  UpdateCampaignBody,
} from './dto/campaign.dto';

const NOT_SEEN =
  'Missing, of another organization, or not visible to the caller (a Member sees campaigns given to them or ' +
  'their groups, a Manager also those they own, an Admin all)';
const MANAGERS = 'Only Managers and Admins of the organization (and staff) manage campaigns';
const THUMBNAIL = "An image only (415 'This file type is not allowed.'); 413 'The file is too large.'";

/** `document` or `template` in a path. */
const ResourceTypeParam = (name: string) =>
  Param(name, {
    transform: (value: unknown): CampaignResourceType => {
      if (!CAMPAIGN_RESOURCE_TYPES.includes(value as CampaignResourceType)) {
        throw badInput('type must be document or template.');
      }
      return value as CampaignResourceType;
    },
  });

@ApiTags('campaigns')
@Controller('campaigns')
@Authenticated()
export class CampaignsController {
  constructor(private readonly campaigns: CampaignsService) {}

  @Get('organization/:id')
  @ApiOperation({
    summary: "The organization's campaigns the caller sees",
    description:
      '24 per page; query searches the name; sortBy createdAt_desc (default), updatedAt_desc, name_asc, name_desc.',
  })
  @ApiOkResponse({ type: CampaignPageResponse })
  @ApiNotFoundResponse({ description: 'Missing organization, or the caller is not in it' })
  list(
    @CurrentUser() me: Principal,
    @IdParam('id') id: number,
    @Query() query: CampaignListQuery,
  ): Promise<CampaignPageResponse> {
    return this.campaigns.list(me, id, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One campaign; who it is given to for those who manage it' })
  @ApiOkResponse({ type: CampaignResponse })
  @ApiNotFoundResponse({ description: NOT_SEEN })
  async get(@CurrentUser() me: Principal, @IdParam('id') id: number): Promise<CampaignResponse> {
    return { campaign: await this.campaigns.get(me, id) };
  }

  @Get(':id/resources')
  @ApiOperation({
    summary: "The campaign's documents or templates (?resources=), last changed first",
    description: 'query searches the name. At most 500.',
  })
  @ApiOkResponse({ type: CampaignResourcesResponse })
  @ApiNotFoundResponse({ description: NOT_SEEN })
  resources(
    @CurrentUser() me: Principal,
    @IdParam('id') id: number,
    @Query() query: CampaignResourcesQuery,
  ): Promise<CampaignResourcesResponse> {
    return this.campaigns.resources(me, id, query);
  }

  @Get(':id/documents/:document_id')
  @ApiOperation({ summary: 'A document of the campaign, for whoever sees the campaign' })
  @ApiOkResponse({ type: DocumentResponse })
  @ApiNotFoundResponse({ description: `${NOT_SEEN}, or the document is not in it` })
  async document(
    @CurrentUser() me: Principal,
    @IdParam('id') id: number,
    @IdParam('document_id') documentId: number,
  ): Promise<DocumentResponse> {
    return { document: await this.campaigns.document(me, id, documentId) };
  }

  @Get(':id/templates/:template_id')
  @ApiOperation({ summary: 'A template of the campaign, for whoever sees the campaign' })
  @ApiOkResponse({ type: TemplateResponse })
  @ApiNotFoundResponse({ description: `${NOT_SEEN}, or the template is not in it` })
  async template(
    @CurrentUser() me: Principal,
    @IdParam('id') id: number,
    @IdParam('template_id') templateId: number,
  ): Promise<TemplateResponse> {
    return { template: await this.campaigns.template(me, id, templateId) };
  }

  @Post()
  @UserLimit('upload')
  @AcceptsFile('thumbnail')
  @ApiOperation({
    summary: 'Create a campaign (multipart form, optional image `thumbnail`); the caller owns it',
  })
  @ApiConsumes('multipart/form-data', 'application/json')
  @ApiBody({ schema: CAMPAIGN_FORM_SCHEMA(false) })
  @ApiCreatedResponse({ type: CampaignResponse })
  @ApiBadRequestResponse({ description: "'Please select an organization' (no organization_id nor scope)" })
  @ApiForbiddenResponse({ description: MANAGERS })
  @ApiNotFoundResponse({ description: 'Missing organization, or the caller is not in it' })
  async create(
    @CurrentUser() me: Principal,
    @Body() body: CreateCampaignBody,
    @UploadedFile() thumbnail: UploadedBlob | undefined,
  ): Promise<CampaignResponse> {
    return { campaign: await this.campaigns.create(me, body, thumbnail) };
  }

  @Put()
  @UserLimit('upload')
  @AcceptsFile('thumbnail')
  @ApiOperation({ summary: "Edit a campaign's name, description or thumbnail (multipart form)" })
  @ApiConsumes('multipart/form-data', 'application/json')
  @ApiBody({ schema: CAMPAIGN_FORM_SCHEMA(true) })
  @ApiOkResponse({ type: CampaignResponse })
  @ApiBadRequestResponse({ description: THUMBNAIL })
  @ApiForbiddenResponse({ description: MANAGERS })
  @ApiNotFoundResponse({ description: NOT_SEEN })
  async update(
    @CurrentUser() me: Principal,
    @Body() body: UpdateCampaignBody,
    @UploadedFile() thumbnail: UploadedBlob | undefined,
  ): Promise<CampaignResponse> {
    return { campaign: await this.campaigns.update(me, body, thumbnail) };
  }

  @Delete('campaign/:id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a campaign (its documents and templates stay)' })
  @ApiNoContentResponse()
  @ApiForbiddenResponse({ description: MANAGERS })
  @ApiNotFoundResponse({ description: NOT_SEEN })
  remove(@CurrentUser() me: Principal, @IdParam('id') id: number): Promise<void> {
    return this.campaigns.remove(me, id);
  }

  @Post('campaign-resource')
  @ApiOperation({
    summary:
      "Add one of the caller's documents, or a template, of the campaign's organization to the campaign",
  })
  @ApiCreatedResponse({ type: CampaignResourceLinkResponse })
  @ApiBadRequestResponse({ description: "'Please select a campaign' (no campaign_id)" })
  @ApiConflictResponse({ description: 'Already in the campaign; or the campaign holds 500 already' })
  @ApiForbiddenResponse({ description: MANAGERS })
  @ApiNotFoundResponse({ description: `${NOT_SEEN}; or the document or template is not the caller's there` })
  addResource(
    @CurrentUser() me: Principal,
    @Body() body: CampaignResourceBody,
  ): Promise<CampaignResourceLinkResponse> {
    return this.campaigns.addResource(me, body, true);
  }

  @Put('campaign-resource')
  @ApiOperation({ summary: 'As POST, but a resource already in the campaign is no change (idempotent)' })
  @ApiOkResponse({ type: CampaignResourceLinkResponse })
  @ApiBadRequestResponse({ description: "'Please select a campaign' (no campaign_id)" })
  @ApiForbiddenResponse({ description: MANAGERS })
  @ApiNotFoundResponse({ description: `${NOT_SEEN}; or the document or template is not the caller's there` })
  putResource(
    @CurrentUser() me: Principal,
    @Body() body: CampaignResourceBody,
  ): Promise<CampaignResourceLinkResponse> {
    return this.campaigns.addResource(me, body, false);
  }

  @Delete('campaign-resource/:type/:resource_id/:campaign_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Take a document or template out of the campaign (it is not deleted)' })
  @ApiParam({ name: 'type', enum: CAMPAIGN_RESOURCE_TYPES })
  @ApiNoContentResponse()
  @ApiForbiddenResponse({ description: MANAGERS })
  @ApiNotFoundResponse({ description: `${NOT_SEEN}, or the resource is not in it` })
  removeResource(
    @CurrentUser() me: Principal,
    @ResourceTypeParam('type') type: CampaignResourceType,
    @IdParam('resource_id') resourceId: number,
    @IdParam('campaign_id') campaignId: number,
  ): Promise<void> {
    return this.campaigns.removeResource(me, type, resourceId, campaignId);
  }

  @Post('give-access/:campaign_id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Give the campaign to a member of its organization (user_id) or one of its groups (group_id)',
  })
  @ApiOkResponse({ type: CampaignResponse })
  @ApiBadRequestResponse({
    description: "Neither or both ids; 'That user is not a member of this organization.'",
  })
  @ApiConflictResponse({ description: 'Given to 1000 users and groups already' })
  @ApiForbiddenResponse({ description: MANAGERS })
  @ApiNotFoundResponse({ description: `${NOT_SEEN}; or the group is not the organization's` })
  async giveAccess(
    @CurrentUser() me: Principal,
    @IdParam('campaign_id') campaignId: number,
    @Body() body: CampaignAccessBody,
  ): Promise<CampaignResponse> {
    return { campaign: await this.campaigns.giveAccess(me, campaignId, body) };
  }

  @Post('revoke-access/:campaign_id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Take the campaign back from a user (user_id) or group (group_id)' })
  @ApiOkResponse({ type: CampaignResponse })
  @ApiBadRequestResponse({ description: 'Neither or both ids' })
  @ApiForbiddenResponse({ description: MANAGERS })
  @ApiNotFoundResponse({ description: `${NOT_SEEN}; or it was not given to them` })
  async revokeAccess(
    @CurrentUser() me: Principal,
    @IdParam('campaign_id') campaignId: number,
    @Body() body: CampaignAccessBody,
  ): Promise<CampaignResponse> {
    return { campaign: await this.campaigns.revokeAccess(me, campaignId, body) };
  }
}
