import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  PipeTransform,
  Post,
  Put,
  Query,
} from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPreconditionFailedResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { badInput } from '../../common/errors/domain-error';
import { MAX_ID } from '../../common/http/id-param';
import {
  ConversationMessagesQuery,
  EnhanceBody,
  EnhanceResponse,
  MessagePageResponse,
  MessageResponse,
  OwnMessagesQuery,
  SendMessageBody,
  SendMessageResponse,
  UpdateMessageBody,
} from './dto/message.dto';
import { EnhanceService } from './enhance.service';
import { MessagesService } from './messages.service';
import { IdParam } from '../../common/http/id-param';

/** A page number in the path: a whole number from 1; anything else is 400. */
class PagePipe implements PipeTransform<unknown, number> {
  transform(value: unknown): number {
    const text = typeof value === 'number' ? String(value) : value;
    const page = typeof text === 'string' && /^\d{1,10}$/.test(text) ? Number(text) : NaN;
    if (!(page >= 1 && page <= MAX_ID))
      throw badInput('page must be a whole number, 1 or more.', 'invalid_page');
    return page;
  }
}

@ApiTags('messages')
@Controller('messages')
@Authenticated()
export class MessagesController {
  constructor(
    private readonly messages: MessagesService,
    private readonly enhancer: EnhanceService,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Send a message and generate the answer',
    description:
      'Streamed (default): answers at once with the pending answer (content null), then sends `message_stream` ' +
      'batches and `message_stream_end` with the saved answer on the socket (the last words may come only with ' +
      'it: show its text), or `openai-error` / `error`. ' +
      'With `stream: false` the complete answer comes back. Words are charged once the answer is saved. ' +
      'With `template_id` and `values` it applies a template (the user message shows the template’s name). ' +
      'With `searchOnInternet` the web is searched first; a failed search is an `error` event (or 502), ' +
      'nothing charged. With `enhance: true` it behaves as POST /api/messages/enhance and answers an ' +
      'EnhanceResponse instead.',
  })
  @ApiExtraModels(SendMessageResponse, EnhanceResponse)
  @ApiCreatedResponse({
    description: 'SendMessageResponse; EnhanceResponse when `enhance: true`',
    schema: {
      oneOf: [{ $ref: getSchemaPath(SendMessageResponse) }, { $ref: getSchemaPath(EnhanceResponse) }],
    },
  })
  @ApiBadRequestResponse({
    description:
      "'The message can't be empty.', 'The message is too long.', missing_values, search_unavailable, " +
      'enhance_too_short, model_not_offered, ...',
  })
  @ApiNotFoundResponse({
    description: 'Conversation, avatar or template missing, another user’s, or from another scope',
  })
  @ApiPreconditionFailedResponse({ description: 'No words left and no subscription (code no_access)' })
  @ApiTooManyRequestsResponse({ description: 'Too many generations running (code too_many_generations)' })
  @ApiBadGatewayResponse({ description: 'stream false only: the web search failed (code search_failed)' })
  send(
    @CurrentUser() me: Principal,
    @Body() body: SendMessageBody,
  ): Promise<SendMessageResponse | EnhanceResponse> {
    if (body.enhance === true)
      return this.enhancer.enhance(me, {
        content: body.content ?? '',
        model: body.model,
        stream: body.stream,
      });
    return this.messages.send(me, body);
  }

  @Post('enhance')
  @ApiOperation({
    summary: 'Improve a prompt (nothing is stored as a message)',
    description:
      'Streamed (default): answers at once `{enhance_id, content: null}`, then sends `message_stream_enhance` ' +
      'batches and `message_stream_enhance_end` with the whole improved prompt on the socket, or ' +
      '`openai-error` / `error`. With `stream: false` the improved prompt comes back. Its words are charged ' +
      'once it is complete; nothing when it fails.',
  })
  @ApiCreatedResponse({ type: EnhanceResponse })
  @ApiBadRequestResponse({
    description:
      "'Enhance is available only when the text is longer than 12 characters.' (enhance_too_short), " +
      "'The message is too long.'",
  })
  @ApiPreconditionFailedResponse({ description: 'No words left and no subscription (code no_access)' })
  enhance(@CurrentUser() me: Principal, @Body() body: EnhanceBody): Promise<EnhanceResponse> {
    return this.enhancer.enhance(me, body);
  }

  @Get('thread/:avatar_id')
  @ApiOperation({
    summary: "The caller's thread with an avatar: its 10 latest messages",
    description: 'Sorted oldest first; page 2 on are older messages. Empty before the first message.',
  })
  @ApiOkResponse({ type: MessagePageResponse })
  @ApiNotFoundResponse({ description: 'Avatar missing or one the caller cannot see' })
  threadFirst(@CurrentUser() me: Principal, @IdParam('avatar_id') id: number): Promise<MessagePageResponse> {
    return this.messages.thread(me, id, 1);
  }

  @Get('thread/:avatar_id/:page')
  @ApiOperation({
    summary: "One page of the caller's thread with an avatar, 10 messages per page",
    description: 'Page 1 holds the newest messages; each page is sorted oldest first.',
  })
  @ApiParam({ name: 'page', type: Number, description: 'From 1' })
  @ApiOkResponse({ type: MessagePageResponse })
  @ApiBadRequestResponse({ description: 'page is not a whole number from 1 (code invalid_page)' })
  @ApiNotFoundResponse({ description: 'Avatar missing or one the caller cannot see' })
  thread(
    @CurrentUser() me: Principal,
    @IdParam('avatar_id') id: number,
    @Param('page', new PagePipe()) page: number,
  ): Promise<MessagePageResponse> {
    return this.messages.thread(me, id, page);
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
  async update(@CurrentUser() me: Principal, @Body() body: UpdateMessageBody): Promise<MessageResponse> {
    return { message: await this.messages.update(me, body) };
  }

  @Post(':message_id/retry')
  @ApiOperation({
    summary: 'Generate an interrupted answer again',
    description:
      'The caller’s own interrupted answer goes back to `generating` (content null) and is streamed as a normal ' +
      'send (`message_stream` from offset 0, then `message_stream_end`).',
  })
  @ApiCreatedResponse({ type: MessageResponse })
  @ApiNotFoundResponse({ description: 'Missing, another user’s, or from another scope' })
  @ApiConflictResponse({ description: 'The answer is not interrupted (code message_not_interrupted)' })
  @ApiPreconditionFailedResponse({ description: 'No words left and no subscription (code no_access)' })
  @ApiTooManyRequestsResponse({ description: 'Too many generations running (code too_many_generations)' })
  async retry(@CurrentUser() me: Principal, @IdParam('message_id') id: number): Promise<MessageResponse> {
    return { message: await this.messages.retry(me, id) };
  }

  @Delete(':message_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete one of the caller’s messages (stops its generation if still pending)' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: 'Missing, another user’s, or from another scope' })
  remove(@CurrentUser() me: Principal, @IdParam('message_id') id: number): Promise<void> {
    return this.messages.remove(me, id);
  }
}
