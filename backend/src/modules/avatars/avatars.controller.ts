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
  ApiConsumes,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiPreconditionFailedResponse,
  ApiTags,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { badInput } from '../../common/errors/domain-error';
import { IdParam } from '../../common/http/id-param';
import { UserLimit } from '../../common/rate-limit/user-limit.guard';
import { AcceptsFile, type UploadedBlob } from '../files/upload.interceptor';
import { PREMIUM_FEATURE } from './avatar-rules';
import { AvatarsService } from './avatars.service';
import {
  AddContextBody,
  AddFileForm,
  AvatarFileResponse,
  AvatarListQuery,
  AvatarPageResponse,
  AvatarResponse,
  CreateAvatarBody,
  EditableFileBody,
  RetrievalQuery,
  RetrievalResponse,
  UpdateAvatarBody,
  UpdateEditableFileBody,
} from './dto/avatar.dto';

/** A key kept in a path (assistant_id, openai_file_id): letters, digits and underscores, at most 40. */
function keyParam(value: string, name: string): string {
  if (!/^[A-Za-z0-9_]{1,40}$/.test(value)) throw badInput(`${name} is not valid.`, 'bad_input');
  return value;
}

const NOT_VISIBLE = 'Missing, or an avatar the caller cannot see (another user’s, another organization’s)';

@ApiTags('avatars')
@Controller('avatars')
@Authenticated()
export class AvatarsController {
  constructor(private readonly avatars: AvatarsService) {}

  @Get()
  @ApiOperation({
    summary: "The caller's avatars in the scope (and the organization's), newest first, 24 per page",
  })
  @ApiOkResponse({ type: AvatarPageResponse })
  list(@CurrentUser() me: Principal, @Query() query: AvatarListQuery): Promise<AvatarPageResponse> {
    return this.avatars.list(me, query);
  }

  @Get('public/all')
  @ApiOperation({ summary: 'Community avatars (public), newest first, 24 per page' })
  @ApiOkResponse({ type: AvatarPageResponse })
  listPublic(@CurrentUser() me: Principal, @Query() query: AvatarListQuery): Promise<AvatarPageResponse> {
    return this.avatars.listPublic(me, query);
  }

  @Get('super-fetch')
  @ApiOperation({ summary: "The caller's Super Fetch assistants in the scope" })
  @ApiOkResponse({ type: AvatarPageResponse })
  superFetch(@CurrentUser() me: Principal): Promise<AvatarPageResponse> {
    return this.avatars.superFetch(me);
  }

  @Get(':avatar_id')
  @ApiOperation({ summary: 'One avatar with its files and their indexing state' })
  @ApiOkResponse({ type: AvatarResponse })
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  async get(@CurrentUser() me: Principal, @IdParam('avatar_id') id: number): Promise<AvatarResponse> {
    return { avatar: await this.avatars.get(me, id) };
  }

  @Get(':avatar_id/passages')
  @ApiOperation({
    summary: 'The passages of its files the avatar would be given for a question (at most 5, best first)',
  })
  @ApiOkResponse({ type: RetrievalResponse })
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  passages(
    @CurrentUser() me: Principal,
    @IdParam('avatar_id') id: number,
    @Query() query: RetrievalQuery,
  ): Promise<RetrievalResponse> {
    return this.avatars.passages(me, id, query.question);
  }

  @Post()
  @ApiOperation({ summary: 'Create an avatar in the current scope' })
  @ApiCreatedResponse({ type: AvatarResponse })
  @ApiBadRequestResponse({ description: "'You must add a name to your avatar.'" })
  @ApiForbiddenResponse({ description: 'public: true by someone not a staff admin' })
  @ApiPreconditionFailedResponse({ description: PREMIUM_FEATURE })
  async create(@CurrentUser() me: Principal, @Body() body: CreateAvatarBody): Promise<AvatarResponse> {
    return { avatar: await this.avatars.create(me, body) };
  }

  @Put()
  @ApiOperation({ summary: 'Change an avatar (its owner or a staff admin; public only by staff admins)' })
  @ApiOkResponse({ type: AvatarResponse })
  @ApiForbiddenResponse({ description: 'Visible but not the caller’s, or public changed by a non-admin' })
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  async update(@CurrentUser() me: Principal, @Body() body: UpdateAvatarBody): Promise<AvatarResponse> {
    return { avatar: await this.avatars.update(me, body) };
  }

  @Put('add-context/:avatar_id')
  @ApiOperation({ summary: "Set the avatar's context (and name)" })
  @ApiOkResponse({ type: AvatarResponse })
  @ApiBadRequestResponse({ description: "'The input can't be empty'" })
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  async addContext(
    @CurrentUser() me: Principal,
    @IdParam('avatar_id') id: number,
    @Body() body: AddContextBody,
  ): Promise<AvatarResponse> {
    return { avatar: await this.avatars.addContext(me, id, body) };
  }

  @Post('add-file/:avatar_id/:assistant_id')
  @UserLimit('upload')
  @AcceptsFile('file')
  @ApiOperation({
    summary:
      'Add a knowledge file: .docx, .pdf, .pptx or .txt, typed by content; indexed by a background job',
    description: 'The path names the avatar twice: its avatar_id and its assistant_id (our own key).',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      properties: { file: { type: 'string', format: 'binary' }, name: { type: 'string', maxLength: 255 } },
    },
  })
  @ApiCreatedResponse({ type: AvatarFileResponse })
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  @ApiPreconditionFailedResponse({ description: PREMIUM_FEATURE })
  @ApiPayloadTooLargeResponse({ description: 'The file is too large.' })
  @ApiUnsupportedMediaTypeResponse({ description: 'This file type is not allowed.' })
  async addFile(
    @CurrentUser() me: Principal,
    @IdParam('avatar_id') id: number,
    @Param('assistant_id') assistantId: string,
    @UploadedFile() upload: UploadedBlob | undefined,
    @Body() form: AddFileForm,
  ): Promise<AvatarFileResponse> {
    return {
      file: await this.avatars.addFile(me, id, keyParam(assistantId, 'assistant_id'), upload, form.name),
    };
  }

  @Post('add-editable-file/:avatar_id/:assistant_id')
  @ApiOperation({ summary: 'Add an editable .txt knowledge file (name, content)' })
  @ApiCreatedResponse({ type: AvatarFileResponse })
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  @ApiPreconditionFailedResponse({ description: PREMIUM_FEATURE })
  async addEditableFile(
    @CurrentUser() me: Principal,
    @IdParam('avatar_id') id: number,
    @Param('assistant_id') assistantId: string,
    @Body() body: EditableFileBody,
  ): Promise<AvatarFileResponse> {
    return { file: await this.avatars.addEditableFile(me, id, keyParam(assistantId, 'assistant_id'), body) };
  }

  @Put('editable-file/:file_id')
  @ApiOperation({
    summary: "Replace an editable file's text (indexed again)",
    description: 'file_id = avatar_file_id',
  })
  @ApiOkResponse({ type: AvatarFileResponse })
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  async updateEditableFile(
    @CurrentUser() me: Principal,
    @IdParam('file_id') fileId: number,
    @Body() body: UpdateEditableFileBody,
  ): Promise<AvatarFileResponse> {
    return { file: await this.avatars.updateEditableFile(me, fileId, body) };
  }

  @Delete('file/:file_id/:openai_file_id/:assistant_id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Remove a knowledge file',
    description: "file_id and openai_file_id are both the avatar_file_id; assistant_id is the avatar's key.",
  })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  removeFile(
    @CurrentUser() me: Principal,
    @IdParam('file_id') fileId: number,
    @Param('openai_file_id') openaiFileId: string,
    @Param('assistant_id') assistantId: string,
  ): Promise<void> {
    return this.avatars.removeFile(
      me,
      fileId,
      keyParam(openaiFileId, 'openai_file_id'),
      keyParam(assistantId, 'assistant_id'),
    );
  }

  @Delete(':avatar_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an avatar with its files and threads (its owner or a staff admin)' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  remove(@CurrentUser() me: Principal, @IdParam('avatar_id') id: number): Promise<void> {
    return this.avatars.remove(me, id);
  }
}
