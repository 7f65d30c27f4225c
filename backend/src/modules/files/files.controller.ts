import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  Param,
  Post,
  Put,
  Query,
  Res,
  StreamableFile,
  UploadedFile,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiProduces,
  ApiTags,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Authenticated, CurrentUser, OptionalUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import {
  CREATE_FILE_BODY_SCHEMA,
  CreateFileDto,
  FileListQuery,
  FileListResponse,
  FileResponse,
  UPDATE_FILE_BODY_SCHEMA,
  UpdateFileDto,
} from './dto/files.dto';
import { FilesService } from './files.service';
import { AcceptsFile, type UploadedBlob } from './upload.interceptor';
import { IdParam } from '../../common/http/id-param';
import { UserLimit } from '../../common/rate-limit/user-limit.guard';

@ApiTags('Files')
@Controller('files')
export class FilesController {
  constructor(private readonly files: FilesService) {}

  @Post()
  @Authenticated()
  @UserLimit('upload')
  @AcceptsFile('file')
  @ApiOperation({
    summary: 'Upload a file (multipart field `file`) or create a text file (JSON name, content)',
    description:
      'Allowed by content: png, jpeg, webp, gif, mp4, webm, quicktime, pdf, docx, pptx, UTF-8 text.',
  })
  @ApiConsumes('multipart/form-data', 'application/json')
  @ApiBody({ schema: CREATE_FILE_BODY_SCHEMA })
  @ApiCreatedResponse({ type: FileResponse })
  @ApiPayloadTooLargeResponse({ description: 'The file is too large.' })
  @ApiUnsupportedMediaTypeResponse({ description: 'This file type is not allowed.' })
  async create(
    @CurrentUser() user: Principal,
    @UploadedFile() upload: UploadedBlob | undefined,
    @Body() body: CreateFileDto,
  ): Promise<FileResponse> {
    return { file: await this.files.create(user.user_id, upload, body) };
  }

  @Get()
  @Authenticated()
  @ApiOperation({ summary: "The caller's files, newest first; query searches the name" })
  @ApiOkResponse({ type: FileListResponse })
  list(@CurrentUser() user: Principal, @Query() query: FileListQuery): Promise<FileListResponse> {
    return this.files.list(user.user_id, query);
  }

  @Get('content/:storage_key')
  @Authenticated({ public: true })
  @ApiOperation({
    summary: 'The bytes of a file (the `src` of a file)',
    description:
      "Images and videos are public; other files need the owner's Authorization header (404 otherwise) and are served as attachments. Supports one Range.",
  })
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ schema: { type: 'string', format: 'binary' } })
  async content(
    @Param('storage_key') storageKey: string,
    @OptionalUser() user: Principal | undefined,
    @Headers('range') range: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    const content = await this.files.content(storageKey, user?.user_id ?? null, range);
    res.status(content.status).set(content.headers);
    return new StreamableFile(content.stream);
  }

  @Get(':id')
  @Authenticated()
  @ApiOkResponse({ type: FileResponse })
  async get(@CurrentUser() user: Principal, @IdParam('id') id: number): Promise<FileResponse> {
    return { file: await this.files.get(user.user_id, id) };
  }

  @Put(':id')
  @Authenticated()
  @UserLimit('upload', { multipartOnly: true })
  @AcceptsFile('file')
  @ApiOperation({
    summary: 'Rename (JSON or form field `name`) and/or replace the content (multipart `file`)',
  })
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiBody({ schema: UPDATE_FILE_BODY_SCHEMA })
  @ApiOkResponse({ type: FileResponse })
  async update(
    @CurrentUser() user: Principal,
    @IdParam('id') id: number,
    @UploadedFile() upload: UploadedBlob | undefined,
    @Body() body: UpdateFileDto,
  ): Promise<FileResponse> {
    return { file: await this.files.update(user.user_id, id, upload, body.name) };
  }

  @Delete(':id')
  @Authenticated()
  @ApiOkResponse({ type: FileResponse, description: 'The deleted file' })
  async remove(@CurrentUser() user: Principal, @IdParam('id') id: number): Promise<FileResponse> {
    return { file: await this.files.remove(user.user_id, id) };
  }
}
