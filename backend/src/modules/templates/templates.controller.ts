import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import {
  CreateTemplateBody,
  FavoriteBody,
  FavoriteResponse,
  TemplateListQuery,
  TemplatePageResponse,
  TemplateResponse,
  TemplateTagsResponse,
  TemplateTypesResponse,
  UpdateTemplateBody,
} from './dto/template.dto';
import { TemplatesService } from './templates.service';
import { IdParam } from '../../common/http/id-param';

const NOT_VISIBLE = 'Missing, or another user’s private template';
const LIST_FILTERS = 'Filters: tag, type, favorites, query, language, sortBy; 24 per page.';

// Static paths are declared before `:template_id` so that "tags", "all" and so on are not read as ids.
@ApiTags('templates')
@Controller('templates')
@Authenticated()
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Get()
  @ApiOperation({
    summary:
      'Templates the caller can see: their own (Personal, or the organization’s with ?organization_id=) and public ones',
    description: LIST_FILTERS,
  })
  @ApiOkResponse({ type: TemplatePageResponse })
  @ApiBadRequestResponse({ description: 'Unknown sortBy, language or bad filter' })
  list(@CurrentUser() me: Principal, @Query() query: TemplateListQuery): Promise<TemplatePageResponse> {
    return this.templates.list(me, query);
  }

  @Get('all')
  @Authenticated({ permission: 'template.viewAll' })
  @ApiOperation({ summary: 'Every template, for staff', description: LIST_FILTERS })
  @ApiOkResponse({ type: TemplatePageResponse })
  all(@CurrentUser() me: Principal, @Query() query: TemplateListQuery): Promise<TemplatePageResponse> {
    return this.templates.list(me, query, 'all');
  }

  @Get('public')
  @ApiOperation({ summary: 'Public templates', description: LIST_FILTERS })
  @ApiOkResponse({ type: TemplatePageResponse })
  public(@CurrentUser() me: Principal, @Query() query: TemplateListQuery): Promise<TemplatePageResponse> {
    return this.templates.list(me, query, 'public');
  }

  @Get('tags')
  @ApiOperation({ summary: 'Tags on the templates the caller can see, with counts' })
  @ApiOkResponse({ type: TemplateTagsResponse })
  tags(@CurrentUser() me: Principal): Promise<TemplateTagsResponse> {
    return this.templates.tags(me);
  }

  @Get('types')
  @ApiOperation({ summary: 'Types of the templates the caller can see, with counts' })
  @ApiOkResponse({ type: TemplateTypesResponse })
  types(@CurrentUser() me: Principal): Promise<TemplateTypesResponse> {
    return this.templates.types(me);
  }

  @Get('tag/:tag')
  @ApiOperation({ summary: 'Visible templates carrying one tag', description: LIST_FILTERS })
  @ApiOkResponse({ type: TemplatePageResponse })
  byTag(
    @CurrentUser() me: Principal,
    @Param('tag') tag: string,
    @Query() query: TemplateListQuery,
  ): Promise<TemplatePageResponse> {
    return this.templates.list(me, { ...query, tag });
  }

  @Get('type/:type')
  @ApiOperation({ summary: 'Visible templates of one type', description: LIST_FILTERS })
  @ApiOkResponse({ type: TemplatePageResponse })
  byType(
    @CurrentUser() me: Principal,
    @Param('type') type: string,
    @Query() query: TemplateListQuery,
  ): Promise<TemplatePageResponse> {
    return this.templates.list(me, { ...query, type });
  }

  @Post('favorite')
  @HttpCode(200)
  @ApiOperation({ summary: 'Add a visible template to the caller’s favorites, or remove it' })
  @ApiOkResponse({ type: FavoriteResponse })
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  favorite(@CurrentUser() me: Principal, @Body() body: FavoriteBody): Promise<FavoriteResponse> {
    return this.templates.toggleFavorite(me, body.template_id);
  }

  @Get(':template_id')
  @ApiOperation({
    summary: 'One visible template; content is null when its prompt is hidden from the caller',
  })
  @ApiOkResponse({ type: TemplateResponse })
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  async get(@CurrentUser() me: Principal, @IdParam('template_id') id: number): Promise<TemplateResponse> {
    return { template: await this.templates.get(me, id) };
  }

  @Post()
  @ApiOperation({ summary: 'Create a template in the current scope; fields follow from the [placeholders]' })
  @ApiCreatedResponse({ type: TemplateResponse })
  @ApiBadRequestResponse({
    description: "'Please complete all the required fields to save.' with per-field errors",
  })
  @ApiForbiddenResponse({ description: "'Only admins can make a template public.'" })
  async create(@CurrentUser() me: Principal, @Body() body: CreateTemplateBody): Promise<TemplateResponse> {
    return { template: await this.templates.create(me, body) };
  }

  @Put()
  @ApiOperation({ summary: 'Change a template (owner, staff admin, or anyone when it is editable)' })
  @ApiOkResponse({ type: TemplateResponse })
  @ApiBadRequestResponse({ description: 'Validation failures, as on create' })
  @ApiForbiddenResponse({ description: 'Visible but not the caller’s to change' })
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  async update(@CurrentUser() me: Principal, @Body() body: UpdateTemplateBody): Promise<TemplateResponse> {
    return { template: await this.templates.update(me, body) };
  }

  @Delete(':template_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a template (same rule as editing)' })
  @ApiNoContentResponse()
  @ApiForbiddenResponse({ description: 'Visible but not the caller’s to delete' })
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  remove(@CurrentUser() me: Principal, @IdParam('template_id') id: number): Promise<void> {
    return this.templates.remove(me, id);
  }
}
