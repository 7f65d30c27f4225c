import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsObject,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { PageInfo, PageQuery } from '../../../common/http/pagination';
import { IsTagInput } from '../../../common/http/validators';
import {
  FIELD_TYPES,
  LANGUAGES,
  MAX_FIELDS,
  MAX_LABEL_LENGTH,
  MAX_NAME_LENGTH,
  MAX_TYPE_LENGTH,
  SORTS,
  type FieldType,
  type TemplateLanguage,
  type TemplateSort,
} from '../template-rules';

import { MAX_ID } from '../../../common/http/id-param';
export { MAX_ID };
const ID_MESSAGE = 'template_id must be a whole number.';
const LANGUAGE_MESSAGE = 'language must be en or es.';
const TEXT_LIMIT = 100_000;

/** Select options: a list, or the stored slash-joined text (read by the same rule as stored ones). */
function IsOptionsInput(): PropertyDecorator {
  return ValidateBy({
    name: 'isOptionsInput',
    validator: {
      validate: (v: unknown) =>
        typeof v === 'string' ||
        (Array.isArray(v) && v.length <= 200 && v.every((o) => typeof o === 'string' && o.length <= 1000)),
      defaultMessage: () => 'options must be a list of texts.',
    },
  });
}

export class TemplateFieldDto {
  @ApiProperty({ description: 'The placeholder name, as written between brackets in the content' })
  name: string;

  @ApiProperty({ maxLength: MAX_LABEL_LENGTH })
  label: string;

  @ApiProperty({ enum: FIELD_TYPES })
  type: FieldType;

  @ApiProperty({
    type: [String],
    description:
      'Select options (empty for other types). Stored slash-joined with a trailing slash ("a/b/"); on reading the ' +
      'text is split on "/" and the piece after the final slash is dropped.',
  })
  options: string[];

  @ApiProperty({ description: '1-based position in the form' })
  order: number;

  @ApiProperty({ description: 'Default value: the first option of a select, else empty' })
  value: string;
}

export class TemplateFieldInput {
  @ApiProperty({ description: 'Placeholder name; settings for names not in the content are dropped' })
  @IsString({ message: 'Each field needs a name.' })
  @MaxLength(1000, { message: 'A field name is too long.' })
  name: string;

  @ApiPropertyOptional({ maxLength: MAX_LABEL_LENGTH, description: 'Default: the name' })
  @IsOptional()
  @IsString({ message: 'label must be a text.' })
  label?: string;

  @ApiPropertyOptional({ enum: FIELD_TYPES, default: 'text' })
  @IsOptional()
  @IsIn(FIELD_TYPES, { message: `type must be one of ${FIELD_TYPES.join(', ')}.` })
  type?: FieldType;

  @ApiPropertyOptional({ type: [String], description: 'Needed (at least one, none empty) for select' })
  @IsOptional()
  @IsOptionsInput()
  options?: string[] | string;

  @ApiPropertyOptional({ description: '1-based; default: position of the placeholder in the content' })
  @IsOptional()
  @IsInt({ message: 'order must be a whole number.' })
  @Min(1, { message: 'order must be 1 or more.' })
  @Max(10_000, { message: 'order must be 10000 or less.' })
  order?: number;

  @ApiPropertyOptional({ description: 'Ignored: values are given when the template is applied' })
  @IsOptional()
  value?: unknown;
}

export class TemplateDto {
  @ApiProperty()
  template_id: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'The author; null once their account is deleted',
  })
  user_id: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'null = Personal' })
  organization_id: number | null;

  @ApiProperty()
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Prompt with [field] placeholders; null when show_prompt is off and the caller is not the owner or staff',
  })
  content: string | null;

  @ApiProperty({ description: 'Free text; empty = none' })
  type: string;

  @ApiProperty({ example: 'blog,seo', description: 'Comma-separated, as the spec' })
  tags: string;

  @ApiProperty({ enum: LANGUAGES })
  language: TemplateLanguage;

  @ApiProperty()
  public: boolean;

  @ApiProperty({ description: 'Anyone who can see it may edit or delete it' })
  editable: boolean;

  @ApiProperty()
  show_prompt: boolean;

  @ApiProperty({ type: [TemplateFieldDto] })
  fields: TemplateFieldDto[];

  @ApiProperty({ description: 'Whether the caller has it among their favorites' })
  favorite: boolean;

  @ApiProperty()
  createdAt: Date;

  @ApiProperty()
  updatedAt: Date;
}

export class TemplateResponse {
  @ApiProperty({ type: TemplateDto })
  template: TemplateDto;
}

export class TemplatePageResponse extends PageInfo {
  @ApiProperty({ type: [TemplateDto] })
  templates: TemplateDto[];
}

export class TemplateTagDto {
  @ApiProperty()
  tag: string;

  @ApiProperty({ description: 'How many templates the caller can see carry the tag' })
  templates: number;
}

export class TemplateTagsResponse {
  @ApiProperty({ type: [TemplateTagDto] })
  tags: TemplateTagDto[];

  @ApiProperty({ description: 'Number of distinct tags' })
  total: number;
}

export class TemplateTypeDto {
  @ApiProperty()
  type: string;

  @ApiProperty({ description: 'How many templates the caller can see have the type' })
  templates: number;
}

export class TemplateTypesResponse {
  @ApiProperty({ type: [TemplateTypeDto] })
  types: TemplateTypeDto[];

  @ApiProperty({ description: 'Number of distinct types' })
  total: number;
}

export class FavoriteResponse {
  @ApiProperty({ description: 'Whether the template is now a favorite' })
  favorite: boolean;
}

export class TemplateListQuery extends PageQuery {
  @ApiPropertyOptional({ enum: SORTS, description: 'Default: the templates_default_sort setting' })
  @IsOptional()
  @IsIn(SORTS, { message: `sortBy must be one of ${SORTS.join(', ')}.` })
  sortBy?: TemplateSort;

  @ApiPropertyOptional({ description: 'Only templates carrying this tag' })
  @IsOptional()
  @IsString()
  @MaxLength(100, { message: 'The tag is too long.' })
  tag?: string;

  @ApiPropertyOptional({ description: 'Only templates of this type' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_TYPE_LENGTH, { message: 'The type is too long.' })
  type?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'true = only the caller’s favorites' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'favorites must be true or false.' })
  favorites?: 'true' | 'false';

  @ApiPropertyOptional({ enum: LANGUAGES })
  @IsOptional()
  @IsIn(LANGUAGES, { message: LANGUAGE_MESSAGE })
  language?: TemplateLanguage;
}

/**
 * Types only here: emptiness, lengths, fields and options are the service's rules, checked together so that
 * the answer lists every problem of the form at once.
 */
export class CreateTemplateBody {
  @ApiProperty({ type: String, maxLength: MAX_NAME_LENGTH })
  @IsOptional()
  @IsString({ message: 'name must be a text.' })
  name?: string | null;

  @ApiProperty({ type: String })
  @IsOptional()
  @IsString({ message: 'description must be a text.' })
  @MaxLength(TEXT_LIMIT, { message: 'The description is too long.' })
  description?: string | null;

  @ApiPropertyOptional({
    type: String,
    description:
      'Prompt with [field] placeholders; the fields are derived from them. Required on create; left out on ' +
      'update, the stored prompt is kept (as when the prompt is hidden from the editor)',
  })
  @IsOptional()
  @IsString({ message: 'content must be a text.' })
  @MaxLength(TEXT_LIMIT, { message: 'The content is too long.' })
  content?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_TYPE_LENGTH })
  @IsOptional()
  @IsString({ message: 'type must be a text.' })
  @MaxLength(MAX_TYPE_LENGTH, { message: `type must be ${MAX_TYPE_LENGTH} characters or fewer.` })
  type?: string | null;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description: 'Comma string or list; trimmed, deduplicated, each 1-100 characters, at most 20',
  })
  @IsOptional()
  @IsTagInput()
  tags?: string | string[] | null;

  @ApiPropertyOptional({ enum: LANGUAGES, default: 'en' })
  @IsOptional()
  @IsIn(LANGUAGES, { message: LANGUAGE_MESSAGE })
  language?: TemplateLanguage;

  @ApiPropertyOptional({ description: 'Only staff admins may make a template public' })
  @IsOptional()
  @IsBoolean({ message: 'public must be true or false.' })
  public?: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean({ message: 'editable must be true or false.' })
  editable?: boolean;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean({ message: 'show_prompt must be true or false.' })
  show_prompt?: boolean;

  @ApiPropertyOptional({
    type: [TemplateFieldInput],
    description: 'Settings for placeholders; a name may appear once',
  })
  @IsOptional()
  @IsArray({ message: 'fields must be a list.' })
  @ArrayMaxSize(MAX_FIELDS, { message: `A template can have at most ${MAX_FIELDS} fields.` })
  // ValidateNested alone passes a list inside the list, which the service then read as a field (a 500).
  @IsObject({ each: true, message: 'Each field must be an object.' })
  @ValidateNested({ each: true })
  @Type(() => TemplateFieldInput)
  fields?: TemplateFieldInput[];
}

export class UpdateTemplateBody extends CreateTemplateBody {
  @ApiProperty()
  @IsInt({ message: ID_MESSAGE })
  @Min(1, { message: ID_MESSAGE })
  @Max(MAX_ID, { message: ID_MESSAGE })
  template_id: number;
}

export class FavoriteBody {
  @ApiProperty()
  @IsInt({ message: ID_MESSAGE })
  @Min(1, { message: ID_MESSAGE })
  @Max(MAX_ID, { message: ID_MESSAGE })
  template_id: number;
}
