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
  ApiPreconditionFailedResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { badInput } from '../../common/errors/domain-error';
import { ScopeQuery } from '../../common/http/pagination';
import { MAX_ID } from '../conversations/dto/conversation.dto';
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

/** Path ids are whole numbers in the int range; anything else is the caller's mistake, not a missing record. */
const IdPipe = new ParseIntPipe({
  exceptionFactory: () => badInput('The id must be a whole number.', 'invalid_id'),
});
const idInRange = (id: number): number => {
  if (id < 1 || id > MAX_ID) throw badInput('The id must be a whole number.', 'invalid_id');
  return id;
};

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
    @Param('conversation_id', IdPipe) id: number,
    @Query() query: ConversationMessagesQuery,
  ): Promise<MessagePageResponse> {
    return this.messages.listConversation(me, idInRange(id), query);
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
    @Param('message_id', IdPipe) id: number,
    @Query() _scope: ScopeQuery,
  ): Promise<void> {
    return this.messages.remove(me, idInRange(id));
  }
}
