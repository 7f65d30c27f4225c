import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { PageInfo, PageQuery, ScopeQuery } from '../../../common/http/pagination';
import { IsNameText, IsTagInput, Trim } from '../../../common/http/validators';
import {
  CONVERSATION_MODELS,
  MAX_NAME_LENGTH,
  SORTS,
  UNSET_MODEL,
  type ConversationSort,
} from '../conversation-rules';

import { MAX_ID } from '../../../common/http/id-param';
export { MAX_ID };
const MODEL_VALUES = [...CONVERSATION_MODELS, UNSET_MODEL];
const MODEL_MESSAGE = `Model must be one of ${CONVERSATION_MODELS.join(', ')} or ${UNSET_MODEL}.`;
const ID_MESSAGE = 'conversation_id must be a whole number.';
const AVATAR_MESSAGE = 'avatar_id must be a whole number.';

const IsConversationName = () =>
  IsNameText(MAX_NAME_LENGTH, {
    required: 'Conversation name is required.',
    tooLong: `Conversation name must be ${MAX_NAME_LENGTH} characters or fewer.`,
  });

/** The file attached to a conversation (its bytes are a stored file of the user). */
export class ConversationFileDto {
  @ApiProperty()
  file_id: number;

  @ApiProperty({ example: 'report.pdf' })
  name: string;

  @ApiProperty({ example: 'application/pdf', description: 'Detected from the content' })
  type: string;

  @ApiProperty({ description: 'Bytes' })
  size: number;
}

export class ConversationDto {
  @ApiProperty()
  conversation_id: number;

  @ApiProperty()
  user_id: number;

  @ApiProperty({ type: Number, nullable: true, description: 'null = Personal' })
  organization_id: number | null;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: String, nullable: true, description: 'null = the default model (gpt-4o-mini)' })
  model: string | null;

  @ApiProperty({ example: 'blog,ideas', description: 'Comma-separated, as the spec' })
  tags: string;

  @ApiProperty()
  archived: boolean;

  @ApiProperty({ type: Number, nullable: true, description: 'The avatar answering in this conversation' })
  avatar_id: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: "Set on a user's thread with an avatar (kept out of the conversation list)",
  })
  thread_avatar_id: number | null;

  @ApiProperty({
    type: ConversationFileDto,
    nullable: true,
    description: 'The attached file (POST /conversations/file/{conversation_id}), null when none',
  })
  file: ConversationFileDto | null;

  @ApiProperty()
  createdAt: Date;

  @ApiProperty({ description: 'Last change; "Last Used" sorts by it' })
  updatedAt: Date;
}

export class ConversationResponse {
  @ApiProperty({ type: ConversationDto })
  conversation: ConversationDto;
}

export class ConversationPageResponse extends PageInfo {
  @ApiProperty({ type: [ConversationDto] })
  conversations: ConversationDto[];
}

export class ConversationTagDto {
  @ApiProperty()
  tag: string;

  @ApiProperty({ description: 'How many of the caller’s conversations in this scope carry the tag' })
  conversations: number;
}

export class ConversationTagsResponse {
  @ApiProperty({ type: [ConversationTagDto] })
  tags: ConversationTagDto[];

  @ApiProperty({ description: 'Number of distinct tags' })
  total: number;
}

export class ConversationListQuery extends PageQuery {
  @ApiPropertyOptional({ enum: SORTS, default: 'createdAt_desc' })
  @IsOptional()
  @IsIn(SORTS, { message: `sortBy must be one of ${SORTS.join(', ')}.` })
  sortBy?: ConversationSort;

  @ApiPropertyOptional({ description: 'Comma-separated; a conversation must carry every listed tag' })
  @IsOptional()
  @IsString()
  @MaxLength(2100, { message: 'Too many tags in the filter.' })
  tags?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'Absent = archived and not archived' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'archived must be true or false.' })
  archived?: 'true' | 'false';
}

export class ConversationTagsQuery extends ScopeQuery {
  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'Absent = count every conversation' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'archived must be true or false.' })
  archived?: 'true' | 'false';
}

export class CreateConversationBody {
  @ApiProperty({ maxLength: MAX_NAME_LENGTH })
  @Trim()
  @IsConversationName()
  name: string;

  @ApiPropertyOptional({ enum: MODEL_VALUES, nullable: true, description: 'null or Unset = default' })
  @IsOptional()
  @IsIn(MODEL_VALUES, { message: MODEL_MESSAGE })
  model?: string | null;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description: 'Comma string or list; trimmed, deduplicated, each 1-100 characters, at most 20',
  })
  @IsOptional()
  @IsTagInput()
  tags?: string | string[] | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @IsOptional()
  @IsInt({ message: AVATAR_MESSAGE })
  @Min(1, { message: AVATAR_MESSAGE })
  @Max(MAX_ID, { message: AVATAR_MESSAGE })
  avatar_id?: number | null;
}

export class UpdateConversationBody {
  @ApiProperty()
  @IsInt({ message: ID_MESSAGE })
  @Min(1, { message: ID_MESSAGE })
  @Max(MAX_ID, { message: ID_MESSAGE })
  conversation_id: number;

  @ApiPropertyOptional({ maxLength: MAX_NAME_LENGTH })
  @Trim()
  // null is refused rather than ignored: a conversation cannot lose its name.
  @ValidateIf((o: UpdateConversationBody) => o.name !== undefined)
  @IsConversationName()
  name?: string;

  @ApiPropertyOptional({ enum: MODEL_VALUES, nullable: true, description: 'null or Unset = default' })
  @IsOptional()
  @IsIn(MODEL_VALUES, { message: MODEL_MESSAGE })
  model?: string | null;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description: 'Replaces every tag; null or empty removes them',
  })
  @IsOptional()
  @IsTagInput()
  tags?: string | string[] | null;

  @ApiPropertyOptional()
  @ValidateIf((o: UpdateConversationBody) => o.archived !== undefined)
  @IsBoolean({ message: 'archived must be true or false.' })
  archived?: boolean;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description:
      'Binds the conversation to an avatar (it answers there while the caller may see it); null unbinds',
  })
  @IsOptional()
  @IsInt({ message: AVATAR_MESSAGE })
  @Min(1, { message: AVATAR_MESSAGE })
  @Max(MAX_ID, { message: AVATAR_MESSAGE })
  avatar_id?: number | null;
}
