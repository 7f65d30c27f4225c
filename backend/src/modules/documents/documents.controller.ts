import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
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
import { IdParam } from '../../common/http/id-param';
import { ScopeQuery } from '../../common/http/pagination';
import {
  CreateDocumentBody,
  DocumentListQuery,
  DocumentPageResponse,
  DocumentResponse,
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
    description: '20 per page; query searches the name.',
  })
  @ApiOkResponse({ type: DocumentPageResponse })
  list(@CurrentUser() me: Principal, @Query() query: DocumentListQuery): Promise<DocumentPageResponse> {
    return this.documents.list(me, query);
  }

  @Get(':document_id')
  @ApiOperation({ summary: 'One of the caller’s documents in the current scope' })
  @ApiOkResponse({ type: DocumentResponse })
  @ApiNotFoundResponse({ description: NOT_YOURS })
  async get(
    @CurrentUser() me: Principal,
    @IdParam('document_id') id: number,
    @Query() _scope: ScopeQuery,
  ): Promise<DocumentResponse> {
    return { document: await this.documents.get(me, id) };
  }

  @Post()
  @ApiOperation({ summary: 'Create a document in the current scope' })
  @ApiCreatedResponse({ type: DocumentResponse })
  @ApiBadRequestResponse({ description: LIMITS })
  async create(
    @CurrentUser() me: Principal,
    @Body() body: CreateDocumentBody,
    @Query() _scope: ScopeQuery,
  ): Promise<DocumentResponse> {
    return { document: await this.documents.create(me, body) };
  }

  @Put()
  @ApiOperation({ summary: 'Rename a document and/or replace its content' })
  @ApiOkResponse({ type: DocumentResponse })
  @ApiBadRequestResponse({ description: LIMITS })
  @ApiNotFoundResponse({ description: NOT_YOURS })
  async update(
    @CurrentUser() me: Principal,
    @Body() body: UpdateDocumentBody,
    @Query() _scope: ScopeQuery,
  ): Promise<DocumentResponse> {
    return { document: await this.documents.update(me, body) };
  }

  @Delete(':document_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a document, irreversibly' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: NOT_YOURS })
  remove(
    @CurrentUser() me: Principal,
    @IdParam('document_id') id: number,
    @Query() _scope: ScopeQuery,
  ): Promise<void> {
    return this.documents.remove(me, id);
  }
}
