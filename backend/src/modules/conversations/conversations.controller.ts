import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import {
  ConversationListQuery,
  ConversationPageResponse,
  ConversationResponse,
  ConversationTagsQuery,
  ConversationTagsResponse,
  CreateConversationBody,
  UpdateConversationBody,
} from './dto/conversation.dto';
import { ConversationsService } from './conversations.service';
import { ScopeQuery } from '../../common/http/pagination';
import { IdParam } from '../../common/http/id-param';

@ApiTags('conversations')
@Controller('conversations')
@Authenticated()
export class ConversationsController {
  constructor(private readonly conversations: ConversationsService) {}

  @Get()
  @ApiOperation({
    summary: "The caller's conversations in the current scope (Personal, or ?organization_id=), 20 per page",
  })
  @ApiOkResponse({ type: ConversationPageResponse })
  @ApiBadRequestResponse({ description: 'Unknown sortBy or bad filter' })
  list(
    @CurrentUser() me: Principal,
    @Query() query: ConversationListQuery,
  ): Promise<ConversationPageResponse> {
    return this.conversations.list(me, query);
  }

  @Get('tags')
  @ApiOperation({ summary: "Tags on the caller's conversations in the current scope, with counts" })
  @ApiOkResponse({ type: ConversationTagsResponse })
  tags(
    @CurrentUser() me: Principal,
    @Query() query: ConversationTagsQuery,
  ): Promise<ConversationTagsResponse> {
    return this.conversations.tags(me, query);
  }

  @Get('conversation/:conversation_id')
  @ApiOperation({ summary: 'One of the caller’s conversations in the current scope' })
  @ApiOkResponse({ type: ConversationResponse })
  @ApiNotFoundResponse({ description: 'Missing, another user’s, or from another scope' })
  async get(
    @CurrentUser() me: Principal,
    @IdParam('conversation_id') id: number,
    @Query() _scope: ScopeQuery,
  ): Promise<ConversationResponse> {
    return { conversation: await this.conversations.get(me, id) };
  }

  @Post()
  @ApiOperation({ summary: 'Create a conversation in the current scope (fixed from then on)' })
  @ApiCreatedResponse({ type: ConversationResponse })
  @ApiBadRequestResponse({ description: "'Conversation name is required.' and other validation failures" })
  async create(
    @CurrentUser() me: Principal,
    @Body() body: CreateConversationBody,
    @Query() _scope: ScopeQuery,
  ): Promise<ConversationResponse> {
    return { conversation: await this.conversations.create(me, body) };
  }

  @Put()
  @ApiOperation({ summary: 'Rename, change model or tags, archive or unarchive a conversation' })
  @ApiOkResponse({ type: ConversationResponse })
  @ApiNotFoundResponse({ description: 'Missing, another user’s, or from another scope' })
  async update(
    @CurrentUser() me: Principal,
    @Body() body: UpdateConversationBody,
    @Query() _scope: ScopeQuery,
  ): Promise<ConversationResponse> {
    return { conversation: await this.conversations.update(me, body) };
  }

  @Delete(':conversation_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a conversation and its tags, irreversibly' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: 'Missing, another user’s, or from another scope' })
  remove(
    @CurrentUser() me: Principal,
    @IdParam('conversation_id') id: number,
    @Query() _scope: ScopeQuery,
  ): Promise<void> {
    return this.conversations.remove(me, id);
  }
}
