import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query, UploadedFile } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiPreconditionFailedResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import { UserLimit } from '../../common/rate-limit/user-limit.guard';
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
import { IdParam } from '../../common/http/id-param';
import { AcceptsFile, type UploadedBlob } from '../files/upload.interceptor';

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
  ): Promise<ConversationResponse> {
    return { conversation: await this.conversations.get(me, id) };
  }

  @Post()
  @ApiOperation({ summary: 'Create a conversation in the current scope (fixed from then on)' })
  @ApiCreatedResponse({ type: ConversationResponse })
  @ApiBadRequestResponse({ description: "'Conversation name is required.' and other validation failures" })
  @ApiPreconditionFailedResponse({ description: 'No words left and no subscription (code no_access)' })
  async create(
    @CurrentUser() me: Principal,
    @Body() body: CreateConversationBody,
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
  ): Promise<ConversationResponse> {
    return { conversation: await this.conversations.update(me, body) };
  }

  @Post('file/:conversation_id')
  @UserLimit('upload')
  @AcceptsFile('file')
  @ApiOperation({
    summary: 'Attach a file to a conversation (multipart field `file`), replacing any earlier one',
    description:
      'Accepted by content: docx, pdf, pptx, txt (their text is read now and given to the model with every ' +
      'answer, cut to about 6,000 tokens) and jpeg, png, webp images (sent to the model as images; only with a ' +
      'model that can see images, code image_needs_vision_model otherwise). One file per conversation.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' } },
    },
  })
  @ApiCreatedResponse({ type: ConversationResponse })
  @ApiBadRequestResponse({
    description:
      "Type not accepted (unsupported_type), 'No text could be read from this file.' (no_text_in_file), " +
      'unreadable_file, image_needs_vision_model, file_required',
  })
  @ApiNotFoundResponse({ description: 'Missing, another user’s, or from another scope' })
  @ApiPayloadTooLargeResponse({ description: 'The file is too large.' })
  async attachFile(
    @CurrentUser() me: Principal,
    @IdParam('conversation_id') id: number,
    @UploadedFile() upload: UploadedBlob | undefined,
  ): Promise<ConversationResponse> {
    return { conversation: await this.conversations.attachFile(me, id, upload) };
  }

  @Delete('file/:conversation_id')
  @ApiOperation({ summary: 'Remove the file attached to a conversation (and delete it); no file is fine' })
  @ApiOkResponse({ type: ConversationResponse })
  @ApiNotFoundResponse({ description: 'Missing, another user’s, or from another scope' })
  async removeFile(
    @CurrentUser() me: Principal,
    @IdParam('conversation_id') id: number,
  ): Promise<ConversationResponse> {
    return { conversation: await this.conversations.removeFile(me, id) };
  }

  @Delete(':conversation_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a conversation and its tags, irreversibly' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: 'Missing, another user’s, or from another scope' })
  remove(@CurrentUser() me: Principal, @IdParam('conversation_id') id: number): Promise<void> {
    return this.conversations.remove(me, id);
  }
}
