import { Body, Controller, HttpCode, Post, StreamableFile } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import { UserLimit } from '../../common/rate-limit/user-limit.guard';
import type { Principal } from '../../common/auth/principal';
import { AvatarFileResponse } from '../avatars/dto/avatar.dto';
import { ExportMessageBody, ShareMessageBody } from './dto/message-export.dto';
import { DOCX_MIME, MessageExportsService } from './message-exports.service';

const KEPT =
  'Markdown headings (levels 1-3; deeper ones as level 3), bullet and numbered lists, bold, italic, code ' +
  'spans and blocks, quotes, tables (as rows of text), rules and paragraphs are kept; raw HTML is shown as text.';
const BINARY = { schema: { type: 'string', format: 'binary' } } as const;

@ApiTags('messages')
@Controller('messages')
@Authenticated()
export class MessageExportsController {
  constructor(private readonly exports: MessageExportsService) {}

  @Post('pdf')
  @HttpCode(200)
  @UserLimit('export')
  @ApiOperation({ summary: 'A PDF of a message (attachment message.pdf)', description: KEPT })
  @ApiProduces('application/pdf')
  @ApiOkResponse({ description: 'The PDF', ...BINARY })
  @ApiBadRequestResponse({ description: 'text missing, empty or longer than 65000 characters' })
  async pdf(@Body() body: ExportMessageBody): Promise<StreamableFile> {
    const data = await this.exports.pdf(body.text);
    return new StreamableFile(data, {
      type: 'application/pdf',
      disposition: 'attachment; filename="message.pdf"',
      length: data.length,
    });
  }

  @Post('word')
  @HttpCode(200)
  @UserLimit('export')
  @ApiOperation({
    summary: 'A Word document (.docx) of a message (attachment message.docx)',
    description: KEPT,
  })
  @ApiProduces(DOCX_MIME)
  @ApiOkResponse({ description: 'The .docx file', ...BINARY })
  @ApiBadRequestResponse({ description: 'text missing, empty or longer than 65000 characters' })
  async word(@Body() body: ExportMessageBody): Promise<StreamableFile> {
    const data = await this.exports.word(body.text);
    return new StreamableFile(data, {
      type: DOCX_MIME,
      disposition: 'attachment; filename="message.docx"',
      length: data.length,
    });
  }

  @Post('share')
  @ApiOperation({
    summary: 'Share a message into one of the caller’s avatars',
    description:
      'The message becomes an editable text file of the avatar, named after its conversation and today’s date ' +
      '(YYYY-MM-DD), indexed for the avatar’s answers.',
  })
  @ApiCreatedResponse({ type: AvatarFileResponse })
  @ApiBadRequestResponse({
    description: 'Bad message_id, or the message has no text yet (message_has_no_content)',
  })
  @ApiNotFoundResponse({ description: 'Message or avatar missing, another user’s, or from another scope' })
  @ApiForbiddenResponse({ description: 'The avatar is visible to the caller but not theirs' })
  async share(@CurrentUser() me: Principal, @Body() body: ShareMessageBody): Promise<AvatarFileResponse> {
    return { file: await this.exports.share(me, body.message_id, body.avatar_id) };
  }
}
