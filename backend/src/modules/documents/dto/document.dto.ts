import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
  ValidationArguments,
} from 'class-validator';
import { MAX_ID } from '../../../common/http/id-param';
import { PageInfo, PageQuery } from '../../../common/http/pagination';
import { IsNameText, IsTagInput, Trim } from '../../../common/http/validators';
import {
  DOCUMENT_NAME_REQUIRED,
  DOCUMENT_SORTS,
  DOCUMENT_TOO_LARGE,
  type DocumentSort,
  MAX_DOCUMENT_BLOCKS_CHARS,
  MAX_DOCUMENT_CONTENT,
  MAX_DOCUMENT_NAME,
  MAX_DOCUMENT_TAGS,
} from '../document-rules';

const ID_MESSAGE = 'document_id must be a whole number.';

const IsDocumentName = () =>
  IsNameText(MAX_DOCUMENT_NAME, {
    required: DOCUMENT_NAME_REQUIRED,
    tooLong: `The name must be ${MAX_DOCUMENT_NAME} characters or fewer.`,
  });

function IsDocumentContent(): PropertyDecorator {
  return ValidateBy({
    name: 'isDocumentContent',
    validator: {
      validate: (v: unknown) => typeof v === 'string' && v.length <= MAX_DOCUMENT_CONTENT,
      defaultMessage: (args?: ValidationArguments) =>
        typeof args?.value === 'string' ? DOCUMENT_TOO_LARGE : 'content must be a text.',
    },
  });
}

/** The editor's blocks: a list whose JSON is at most MAX_DOCUMENT_BLOCKS_CHARS long (null clears them). */
function IsDocumentBlocks(): PropertyDecorator {
  return ValidateBy({
    name: 'isDocumentBlocks',
    validator: {
      validate: (v: unknown) =>
        v === null || (Array.isArray(v) && JSON.stringify(v).length <= MAX_DOCUMENT_BLOCKS_CHARS),
      defaultMessage: (args?: ValidationArguments) =>
        Array.isArray(args?.value)
          ? 'The document has too much formatting to save; please shorten it.'
          : 'blocks must be a list of editor blocks.',
    },
  });
}

const TAGS_DOC = `Comma text or list; trimmed, deduplicated, each 1-50 characters, at most ${MAX_DOCUMENT_TAGS}`;
const BLOCKS_DOC =
  'The block editor’s JSON (BlockNote blocks). Sent together with `content`, its Markdown, which search, the ' +
  'size limit and the Word download read; content sent without blocks clears them (the editor reads the Markdown).';

export class DocumentDto {
  @ApiProperty()
  document_id: number;

  @ApiProperty()
  user_id: number;

  @ApiProperty({ type: Number, nullable: true, description: 'null = Personal' })
  organization_id: number | null;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: [String] })
  tags: string[];

  @ApiProperty({ description: 'Text (markdown), fewer than 65000 characters' })
  content: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    nullable: true,
    description: BLOCKS_DOC,
  })
  blocks: Record<string, unknown>[] | null;

  @ApiProperty({ description: 'Raised by every save; send it back with PUT to refuse a stale save (409)' })
  version: number;

  @ApiProperty()
  createdAt: Date;

  @ApiProperty()
  updatedAt: Date;
}

export class DocumentResponse {
  @ApiProperty({ type: DocumentDto })
  document: DocumentDto;
}

export class DocumentPageResponse extends PageInfo {
  @ApiProperty({ type: [DocumentDto] })
  documents: DocumentDto[];
}

export class DocumentTagsResponse {
  @ApiProperty({ type: [String], description: 'The tags of the caller’s documents in the scope, A-Z' })
  tags: string[];
}

/** `?page=&limit=&query=&tags=&sort=` (query searches the name and the text). */
export class DocumentListQuery extends PageQuery {
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string' },
    description: 'Only documents carrying every one of these tags (repeated, or one comma text)',
  })
  @IsOptional()
  @IsTagInput()
  tags?: string | string[];

  @ApiPropertyOptional({ enum: DOCUMENT_SORTS, default: 'updatedAt_desc' })
  @IsOptional()
  @IsIn(DOCUMENT_SORTS, { message: `sort must be one of ${DOCUMENT_SORTS.join(', ')}.` })
  sort?: DocumentSort;
}

export class CreateDocumentBody {
  @ApiProperty({ maxLength: MAX_DOCUMENT_NAME })
  @Trim()
  @IsDocumentName()
  name: string;

  @ApiPropertyOptional({ maxLength: MAX_DOCUMENT_CONTENT, description: "Absent = ''" })
  @ValidateIf((o: CreateDocumentBody) => o.content !== undefined)
  @IsDocumentContent()
  content?: string;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description: TAGS_DOC,
  })
  @IsOptional()
  @IsTagInput()
  tags?: string | string[] | null;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    nullable: true,
    description: BLOCKS_DOC,
  })
  @ValidateIf((o: CreateDocumentBody) => o.blocks !== undefined)
  @IsDocumentBlocks()
  blocks?: Record<string, unknown>[] | null;
}

export class UpdateDocumentBody {
  @ApiProperty()
  @IsInt({ message: ID_MESSAGE })
  @Min(1, { message: ID_MESSAGE })
  @Max(MAX_ID, { message: ID_MESSAGE })
  document_id: number;

  @ApiPropertyOptional({ maxLength: MAX_DOCUMENT_NAME })
  @Trim()
  @ValidateIf((o: UpdateDocumentBody) => o.name !== undefined)
  @IsDocumentName()
  name?: string;

  @ApiPropertyOptional({ maxLength: MAX_DOCUMENT_CONTENT })
  @ValidateIf((o: UpdateDocumentBody) => o.content !== undefined)
  @IsDocumentContent()
  content?: string;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description: TAGS_DOC,
  })
  @IsOptional()
  @IsTagInput()
  tags?: string | string[] | null;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    nullable: true,
    description: BLOCKS_DOC,
  })
  @ValidateIf((o: UpdateDocumentBody) => o.blocks !== undefined)
  @IsDocumentBlocks()
  blocks?: Record<string, unknown>[] | null;

  @ApiPropertyOptional({
    description:
      'The version the edit started from; when the document has been saved since (another tab), 409 document_changed',
  })
  @IsOptional()
  @IsInt({ message: 'version must be a whole number.' })
  @Min(1, { message: 'version must be a whole number.' })
  @Max(MAX_ID, { message: 'version must be a whole number.' })
  version?: number;
}

/** POST /documents/{id}/generate: apply a template, or a free prompt, to the document or a selection of it. */
export class GenerateDocumentBody {
  @ApiPropertyOptional({
    description: 'Apply this template (rendered with `values`); else `prompt` is required',
  })
  @ValidateIf((o: GenerateDocumentBody) => o.prompt === undefined || o.template_id !== undefined)
  @IsInt({ message: 'template_id must be a whole number.' })
  @Min(1, { message: 'template_id must be a whole number.' })
  @Max(MAX_ID, { message: 'template_id must be a whole number.' })
  template_id?: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'With template_id: a non-empty value for every field, by field name',
  })
  @IsOptional()
  @IsObject({ message: 'values must be an object of field names and texts.' })
  values?: Record<string, string>;

  @ApiPropertyOptional({ maxLength: 4000, description: 'A free prompt (without template_id)' })
  @ValidateIf((o: GenerateDocumentBody) => o.template_id === undefined)
  @Trim()
  @IsNameText(4000, {
    required: DOCUMENT_NAME_REQUIRED,
    tooLong: 'The prompt must be 4000 characters or fewer.',
  })
  prompt?: string;

  @ApiPropertyOptional({
    maxLength: MAX_DOCUMENT_CONTENT,
    description: 'The selected text the request is about; absent = the whole document',
  })
  @IsOptional()
  @IsString({ message: 'selection must be a text.' })
  @MaxLength(MAX_DOCUMENT_CONTENT, { message: DOCUMENT_TOO_LARGE })
  selection?: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Absent = the default model' })
  @IsOptional()
  @IsString({ message: 'model must be text.' })
  @MaxLength(100, { message: 'model must be 100 characters or fewer.' })
  model?: string | null;
}

export class GenerateDocumentResponse {
  @ApiProperty({
    description:
      'The text streams as `document_output` events with this id; DELETE /documents/generations/{id} stops it',
  })
  generation_id: string;
}

/**
 * POST /documents/avatar-output: ask an avatar (its context and knowledge answer) about the document or a
 * selection of it, with a free prompt or a template.
 */
export class AvatarOutputBody extends GenerateDocumentBody {
  @ApiProperty({ description: 'The document the answer goes into (the caller’s, in the current scope)' })
  @IsInt({ message: ID_MESSAGE })
  @Min(1, { message: ID_MESSAGE })
  @Max(MAX_ID, { message: ID_MESSAGE })
  document_id: number;

  @ApiProperty({ description: 'An avatar the caller sees; not a Super Fetch assistant' })
  @IsInt({ message: 'avatar_id must be a whole number.' })
  @Min(1, { message: 'avatar_id must be a whole number.' })
  @Max(MAX_ID, { message: 'avatar_id must be a whole number.' })
  avatar_id: number;
}
