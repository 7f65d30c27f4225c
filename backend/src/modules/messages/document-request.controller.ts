import { Body, Controller, Post, UploadedFile } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiPreconditionFailedResponse,
  ApiTags,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { UserLimit } from '../../common/rate-limit/user-limit.guard';
import { PREMIUM_FEATURE } from '../avatars/avatar-rules';
import { AcceptsFile, type UploadedBlob } from '../files/upload.interceptor';
import { MAX_DOCUMENT_REQUEST_MESSAGE } from './document-request-rules';
import { DocumentRequestService } from './document-request.service';
import { DocumentRequestForm } from './dto/document-request.dto';
import { SendMessageResponse } from './dto/message.dto';

/** The avatar call that is a message send (it lives with messages, which answer it). */
@ApiTags('avatars')
@Controller('avatars')
@Authenticated()
export class DocumentRequestController {
  constructor(private readonly documentRequests: DocumentRequestService) {}

  @Post('user-message/document-request')
  @UserLimit('upload')
  @AcceptsFile('file')
  @ApiOperation({
    summary: 'Ask an avatar about a document (.docx, .pdf, .pptx or .txt, typed by content)',
    description:
      "The answer streams into the caller's thread with the avatar like any avatar message (`message_stream`, " +
      '`message_stream_end`, `thread_messages`). The document is read for this message only and not kept as a ' +
      'file; the model gets its text (the first 20,000 characters) inside the user message.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file', 'avatar_id', 'message'],
      properties: {
        file: { type: 'string', format: 'binary' },
        avatar_id: { type: 'integer' },
        message: { type: 'string', maxLength: MAX_DOCUMENT_REQUEST_MESSAGE },
      },
    },
  })
  @ApiCreatedResponse({ type: SendMessageResponse })
  @ApiBadRequestResponse({ description: "'The message can't be empty.', file_required, unreadable_file" })
  @ApiNotFoundResponse({ description: 'An avatar the caller cannot see' })
  @ApiPreconditionFailedResponse({ description: PREMIUM_FEATURE })
  @ApiPayloadTooLargeResponse({ description: 'The file is too large.' })
  @ApiUnsupportedMediaTypeResponse({ description: 'This file type is not allowed.' })
  send(
    @CurrentUser() me: Principal,
    @UploadedFile() upload: UploadedBlob | undefined,
    @Body() form: DocumentRequestForm,
  ): Promise<SendMessageResponse> {
    return this.documentRequests.send(me, form.avatar_id, form.message, upload);
  }
}
