import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPreconditionFailedResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { ScopeQuery } from '../../common/http/pagination';
import {
  ConversationMessagesQuery,
  MessagePageResponse,
  MessageResponse,
  OwnMessagesQuery,
  SendMessageBody,
  SendMessageResponse,
  UpdateMessageBody,
} from './dto/message.dto';
import { MessagesService } from './messages.service';
import { IdParam } from '../../common/http/id-param';

@ApiTags('messages')
@Controller('messages')
@Authenticated()
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  @Post()
  @ApiOperation({
    summary: 'Send a message and generate the answer',
    description:
      'Streamed (default): answers at once with the pending answer (content null), then sends `message_stream` ' +
      'batches and `message_stream_end` with the saved answer on the socket, or `openai-error` / `error`. ' +
      'With `stream: false` the complete answer comes back. Words are charged once the answer is saved.',
  })
  @ApiCreatedResponse({ type: SendMessageResponse })
  @ApiBadRequestResponse({ description: "'The message can't be empty.', 'The message is too long.', ..." })
  @ApiNotFoundResponse({ description: 'Conversation missing, another user’s, or from another scope' })
  @ApiPreconditionFailedResponse({ description: 'No words left and no subscription (code no_access)' })
  send(
    @CurrentUser() me: Principal,
    @Body() body: SendMessageBody,
    @Query() _scope: ScopeQuery,
  ): Promise<SendMessageResponse> {
    return this.messages.send(me, body);
  }

  @Get()
  @ApiOperation({ summary: "The caller's messages in the current scope, newest first, 20 per page" })
  @ApiOkResponse({ type: MessagePageResponse })
  listOwn(@CurrentUser() me: Principal, @Query() query: OwnMessagesQuery): Promise<MessagePageResponse> {
    return this.messages.listOwn(me, query);
  }

  @Get('conversation/:conversation_id')
  @ApiOperation({
    summary: 'Messages of one conversation, 20 per page',
    description: 'Page 1 holds the newest messages; each page is sorted oldest first.',
  })
  @ApiOkResponse({ type: MessagePageResponse })
  @ApiNotFoundResponse({ description: 'Conversation missing, another user’s, or from another scope' })
  listConversation(
    @CurrentUser() me: Principal,
    @IdParam('conversation_id') id: number,
    @Query() query: ConversationMessagesQuery,
  ): Promise<MessagePageResponse> {
    return this.messages.listConversation(me, id, query);
  }

  @Put()
  @ApiOperation({ summary: 'Edit the text of one of the caller’s messages, or toggle it as a favorite' })
  @ApiOkResponse({ type: MessageResponse })
  @ApiNotFoundResponse({ description: 'Missing, another user’s, or from another scope' })
  async update(
    @CurrentUser() me: Principal,
    @Body() body: UpdateMessageBody,
    @Query() _scope: ScopeQuery,
  ): Promise<MessageResponse> {
    return { message: await this.messages.update(me, body) };
  }

  @Delete(':message_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete one of the caller’s messages (stops its generation if still pending)' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: 'Missing, another user’s, or from another scope' })
  remove(
    @CurrentUser() me: Principal,
    @IdParam('message_id') id: number,
    @Query() _scope: ScopeQuery,
  ): Promise<void> {
    return this.messages.remove(me, id);
  }
}
