import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseIntPipe,
  Post,
  Put,
  Query,
} from '@nestjs/common';
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
import { badInput } from '../../common/errors/domain-error';
import {
  ConversationListQuery,
  ConversationPageResponse,
  ConversationResponse,
  ConversationTagsQuery,
  ConversationTagsResponse,
  CreateConversationBody,
  MAX_ID,
  UpdateConversationBody,
} from './dto/conversation.dto';
import { ConversationsService } from './conversations.service';
import { ScopeQuery } from '../../common/http/pagination';

/** Path ids are whole numbers in the int range; anything else is the caller's mistake, not a missing record. */
const IdPipe = new ParseIntPipe({
  exceptionFactory: () => badInput('The id must be a whole number.', 'invalid_id'),
});
const idInRange = (id: number): number => {
  if (id < 1 || id > MAX_ID) throw badInput('The id must be a whole number.', 'invalid_id');
  return id;
};

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
    @Param('conversation_id', IdPipe) id: number,
    @Query() _scope: ScopeQuery,
  ): Promise<ConversationResponse> {
    return { conversation: await this.conversations.get(me, idInRange(id)) };
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
    @Param('conversation_id', IdPipe) id: number,
    @Query() _scope: ScopeQuery,
  ): Promise<void> {
    return this.conversations.remove(me, idInRange(id));
  }
}
