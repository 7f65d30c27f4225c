import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Post,
  Put,
  Query,
  StreamableFile,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPreconditionFailedResponse,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { IdParam } from '../../common/http/id-param';
import { UserLimit } from '../../common/rate-limit/user-limit.guard';

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
import {
  AvatarOutputBody,
  CreateDocumentBody,
  DocumentListQuery,
  DocumentPageResponse,
  DocumentResponse,
  DocumentTagsResponse,
  GenerateDocumentBody,
  GenerateDocumentResponse,
  UpdateDocumentBody,
} from './dto/document.dto';
import { DocumentsService } from './documents.service';

const NOT_YOURS = 'Missing, another user’s, or from another scope';
const LIMITS =
  "'The value can't be empty' (no name), 'The file length is too large, please remove text to save' " +
  '(content of 65000 characters or more, code document_too_large)';

@ApiTags('documents')
@Controller('documents')
@Authenticated()
export class DocumentsController {
  constructor(private readonly documents: DocumentsService) {}

  @Get()
  @ApiOperation({
    summary:
      "The caller's documents in the current scope (Personal, or ?organization_id=), last changed first",
    description:
      '20 per page; query searches the name and the text, tags keeps those carrying every tag given, sort orders ' +
      '(default updatedAt_desc).',
  })
  @ApiOkResponse({ type: DocumentPageResponse })
  list(@CurrentUser() me: Principal, @Query() query: DocumentListQuery): Promise<DocumentPageResponse> {
    return this.documents.list(me, query);
  }

  @Get('tags')
  @ApiOperation({ summary: 'The tags of the caller’s documents in the current scope, A-Z (at most 500)' })
  @ApiOkResponse({ type: DocumentTagsResponse })
  async tags(@CurrentUser() me: Principal): Promise<DocumentTagsResponse> {
    return { tags: await this.documents.tags(me) };
  }

  @Get('doc-converted/:document_id')
  @UserLimit('export')
  @ApiOperation({
    summary: 'The document as a Word file (.docx, attachment named after the document)',
    description:
      'Rendered from the Markdown content: headings, lists, bold, italic, code, quotes, tables (as rows of text).',
  })
  @ApiProduces(DOCX_MIME)
  @ApiOkResponse({ description: 'The .docx file', schema: { type: 'string', format: 'binary' } })
  @ApiNotFoundResponse({ description: NOT_YOURS })
  async converted(@CurrentUser() me: Principal, @IdParam('document_id') id: number): Promise<StreamableFile> {
    const { name, data } = await this.documents.word(me, id);
    const ascii = name.replace(/[^A-Za-z0-9 ._-]+/g, '_').slice(0, 100) || 'document';
    return new StreamableFile(data, {
      type: DOCX_MIME,
      disposition: `attachment; filename="${ascii}.docx"; filename*=UTF-8''${encodeURIComponent(name)}.docx`,
      length: data.length,
    });
  }

  @Post(':document_id/generate')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Apply a template or a free prompt to the document (or a selected part), streamed',
    description:
      'Runs on the generation engine: words reserved (412 without access), charged once complete, nothing when ' +
      'it fails or is stopped. The text streams as `document_output` events ({document_id, generation_id, ' +
      'content, offset, done}); the last one has done: true and the whole text. Nothing is stored: the editor ' +
      'inserts it and saves the document.',
  })
  @ApiAcceptedResponse({ type: GenerateDocumentResponse })
  @ApiBadRequestResponse({
    description: 'Neither template_id nor prompt; missing template values; bad model',
  })
  @ApiNotFoundResponse({ description: 'The document or the template is missing or not the caller’s' })
  @ApiPreconditionFailedResponse({ description: 'No words available' })
  generate(
    @CurrentUser() me: Principal,
    @IdParam('document_id') id: number,
    @Body() body: GenerateDocumentBody,
  ): Promise<GenerateDocumentResponse> {
    return this.documents.generate(me, id, body);
  }

  @Post('avatar-output')
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Ask an avatar about the document (or a selected part), with a free prompt or a template, streamed',
    description:
      'The avatar answers with its context and the passages of its files found for the request, on the ' +
      'generation engine (words reserved, charged once complete). The answer streams as `document_avatar` ' +
      'events ({document_id, avatar_id, generation_id, content, offset, done}); the last one has done: true and ' +
      'the whole answer. Nothing is stored: the editor inserts it and saves the document. ' +
      'DELETE /documents/generations/{id} stops it.',
  })
  @ApiAcceptedResponse({ type: GenerateDocumentResponse })
  @ApiBadRequestResponse({
    description:
      'Neither template_id nor prompt; missing template values; bad model; a Super Fetch assistant (bad_input)',
  })
  @ApiNotFoundResponse({
    description: 'The document, the avatar or the template is missing or not visible to the caller',
  })
  @ApiPreconditionFailedResponse({ description: 'No words available' })
  avatarOutput(
    @CurrentUser() me: Principal,
    @Body() body: AvatarOutputBody,
  ): Promise<GenerateDocumentResponse> {
    return this.documents.avatarOutput(me, body);
  }

  @Delete('generations/:generation_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Stop one of the caller’s document generations (nothing is charged)' })
  @ApiNoContentResponse()
  @ApiBadRequestResponse({ description: 'generation_id is not a UUID' })
  cancel(
    @CurrentUser() me: Principal,
    @Param('generation_id', new ParseUUIDPipe({ version: '4' })) generationId: string,
  ): void {
    this.documents.cancelGeneration(me, generationId);
  }

  @Get(':document_id')
  @ApiOperation({ summary: 'One of the caller’s documents in the current scope' })
  @ApiOkResponse({ type: DocumentResponse })
  @ApiNotFoundResponse({ description: NOT_YOURS })
  async get(@CurrentUser() me: Principal, @IdParam('document_id') id: number): Promise<DocumentResponse> {
    return { document: await this.documents.get(me, id) };
  }

  @Post()
  @ApiOperation({ summary: 'Create a document in the current scope' })
  @ApiCreatedResponse({ type: DocumentResponse })
  @ApiBadRequestResponse({ description: LIMITS })
  async create(@CurrentUser() me: Principal, @Body() body: CreateDocumentBody): Promise<DocumentResponse> {
    return { document: await this.documents.create(me, body) };
  }

  @Put()
  @ApiOperation({
    summary: 'Rename a document and/or replace its tags or content (with the editor’s blocks)',
    description: 'With `version`: refused with 409 document_changed when it was saved since (another tab).',
  })
  @ApiOkResponse({ type: DocumentResponse })
  @ApiBadRequestResponse({ description: LIMITS })
  @ApiConflictResponse({ description: 'document_changed: saved elsewhere since `version`' })
  @ApiNotFoundResponse({ description: NOT_YOURS })
  async update(@CurrentUser() me: Principal, @Body() body: UpdateDocumentBody): Promise<DocumentResponse> {
    return { document: await this.documents.update(me, body) };
  }

  @Delete(':document_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a document, irreversibly' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: NOT_YOURS })
  remove(@CurrentUser() me: Principal, @IdParam('document_id') id: number): Promise<void> {
    return this.documents.remove(me, id);
  }
}
