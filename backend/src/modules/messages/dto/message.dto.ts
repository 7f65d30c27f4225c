import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { MESSAGE_STATUSES, type MessageStatus } from '@avatar-studio/contracts';
import { PageInfo, PageQuery, ScopeQuery } from '../../../common/http/pagination';
import { MAX_ID } from '../../conversations/dto/conversation.dto';

const ID_MESSAGE = (field: string) => `${field} must be a whole number.`;
const CONTENT_TYPE_MESSAGE = 'The message must be text.';
const EMPTY_CONTENT_MESSAGE = "The message can't be empty.";
/** Far above the token limit (7500 × 4 characters); stops huge bodies before the service measures them. */
const MAX_CONTENT_CHARS = 200_000;

export class MessageSourceDto {
  @ApiProperty()
  title: string;

  @ApiProperty({ description: 'An http(s) link' })
  url: string;
}

export class MessageCitationDto {
  @ApiProperty()
  avatar_file_id: number;

  @ApiProperty()
  file_name: string;

  @ApiProperty({ description: 'The passage of the file the answer was given' })
  passage: string;
}

export class MessageDto {
  @ApiProperty()
  message_id: number;

  @ApiProperty()
  conversation_id: number;

  @ApiProperty()
  user_id: number;

  @ApiProperty({ enum: ['user', 'assistant'] })
  role: 'user' | 'assistant';

  @ApiProperty({ type: String, nullable: true, description: 'null = the answer is still being generated' })
  content: string | null;

  @ApiProperty({ type: String, nullable: true, description: "'length' = cut short (Continue generating)" })
  finish_reason: string | null;

  @ApiProperty()
  favorite: boolean;

  @ApiProperty({ type: Number, nullable: true, description: 'On an answer: the message it answers' })
  user_message_id: number | null;

  @ApiProperty({ type: Number, nullable: true })
  message_type_id: number | null;

  @ApiProperty({ type: String, nullable: true })
  model: string | null;

  @ApiProperty({ description: 'Words charged for this answer' })
  words: number;

  @ApiProperty({
    type: [MessageSourceDto],
    nullable: true,
    description: 'On an answer written with web search: the pages found; null otherwise',
  })
  sources: MessageSourceDto[] | null;

  @ApiProperty({
    type: [MessageCitationDto],
    nullable: true,
    description: "On an avatar's answer: the passages of its files it was given (file name and passage)",
  })
  citations: MessageCitationDto[] | null;

  @ApiProperty({
    enum: MESSAGE_STATUSES,
    description:
      "'generating' (content null), 'complete', or 'interrupted' (content = the text produced so far, '' when none)",
  })
  status: MessageStatus;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why an interrupted answer stopped; null otherwise',
  })
  interrupted_reason: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'While generating: the text produced so far, as last saved by the instance generating it',
  })
  partial_content: string | null;

  @ApiProperty()
  createdAt: Date;

  @ApiProperty()
  updatedAt: Date;
}

export class SendMessageResponse {
  @ApiProperty({ type: MessageDto })
  user_message: MessageDto;

  @ApiProperty({ type: MessageDto, description: 'Pending (content null) when streamed; complete otherwise' })
  message: MessageDto;
}

export class MessageResponse {
  @ApiProperty({ type: MessageDto })
  message: MessageDto;
}

export class MessagePageResponse extends PageInfo {
  @ApiProperty({ type: [MessageDto] })
  messages: MessageDto[];
}

export class EnhanceResponse {
  @ApiProperty({ format: 'uuid', description: 'Names the socket events of this enhancement' })
  enhance_id: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The improved prompt; null when streamed (it comes in message_stream_enhance events)',
  })
  content: string | null;
}

export class EnhanceBody {
  @ApiProperty({ description: 'More than 12 characters; at most 7500 estimated tokens (length / 4)' })
  @IsString({ message: CONTENT_TYPE_MESSAGE })
  @MaxLength(MAX_CONTENT_CHARS, { message: 'The message is too long.' })
  content: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Absent = the default model' })
  @IsOptional()
  @IsString({ message: 'model must be text.' })
  @MaxLength(100, { message: 'model must be 100 characters or fewer.' })
  model?: string | null;

  @ApiPropertyOptional({ description: 'Default true; false = answer with the complete improved prompt' })
  @IsOptional()
  @IsBoolean({ message: 'stream must be true or false.' })
  stream?: boolean;
}

export class SendMessageBody {
  @ApiPropertyOptional({
    description:
      'At least 1 character; at most 7500 estimated tokens (length / 4). Required unless template_id is given ' +
      '(then ignored: the rendered template is the prompt).',
  })
  @ValidateIf((o: SendMessageBody) => o.template_id == null || o.content !== undefined)
  @IsString({ message: CONTENT_TYPE_MESSAGE })
  @MaxLength(MAX_CONTENT_CHARS, { message: 'The message is too long.' })
  // Last, so that it is the first rule reported for a missing text.
  @IsDefined({ message: EMPTY_CONTENT_MESSAGE })
  content?: string;

  @ApiPropertyOptional({ description: 'Required unless enhance is true or avatar_id is given (its thread)' })
  @ValidateIf(
    (o: SendMessageBody) => (o.enhance !== true && o.avatar_id == null) || o.conversation_id !== undefined,
  )
  @IsInt({ message: ID_MESSAGE('conversation_id') })
  @Min(1, { message: ID_MESSAGE('conversation_id') })
  @Max(MAX_ID, { message: ID_MESSAGE('conversation_id') })
  conversation_id?: number;

  @ApiPropertyOptional({ type: String, nullable: true, description: "Absent = the conversation's model" })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  model?: string | null;

  @ApiPropertyOptional({ default: true, description: 'false = answer with the complete message' })
  @IsOptional()
  @IsBoolean({ message: 'stream must be true or false.' })
  stream?: boolean;

  @ApiPropertyOptional({
    description:
      'Search the web first and give the model the results (saved as the answer’s sources). Refused with ' +
      'code search_unavailable when web search is off or not set up.',
  })
  @IsOptional()
  @IsBoolean({ message: 'searchOnInternet must be true or false.' })
  searchOnInternet?: boolean;

  @ApiPropertyOptional({
    description:
      'Default true; false = the model gets only this message, none of the conversation’s earlier messages',
  })
  @IsOptional()
  @IsBoolean({ message: 'saveOnConversation must be true or false.' })
  saveOnConversation?: boolean;

  @ApiPropertyOptional({
    description:
      'Default true; false = the model gets only this message, none of the conversation’s earlier messages',
  })
  @IsOptional()
  @IsBoolean({ message: 'learnFromPrevResponse must be true or false.' })
  learnFromPrevResponse?: boolean;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description:
      'The avatar answering (its context and the passages of its files retrieved for the message; the answer ' +
      'cites them). Without conversation_id the message goes to the caller’s thread with the avatar.',
  })
  @IsOptional()
  @IsInt({ message: ID_MESSAGE('avatar_id') })
  @Min(1, { message: ID_MESSAGE('avatar_id') })
  @Max(MAX_ID, { message: ID_MESSAGE('avatar_id') })
  avatar_id?: number | null;

  @ApiPropertyOptional({
    type: Number,
    description:
      'Apply this template: the prompt is the template rendered with `values`; the user message shows the ' +
      'template’s name instead of the prompt.',
  })
  @IsOptional()
  @IsInt({ message: ID_MESSAGE('template_id') })
  @Min(1, { message: ID_MESSAGE('template_id') })
  @Max(MAX_ID, { message: ID_MESSAGE('template_id') })
  template_id?: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { Topic: 'Coffee' },
    description: 'With template_id: a non-empty value for every field, by field name',
  })
  @IsOptional()
  @IsObject({ message: 'values must be an object of field names and texts.' })
  values?: Record<string, string>;

  @ApiPropertyOptional({ description: 'true = delete the user message once the answer is saved' })
  @IsOptional()
  @IsBoolean({ message: 'deleteUserMsg must be true or false.' })
  deleteUserMsg?: boolean;

  @ApiPropertyOptional({
    description: 'true = improve the prompt instead (as POST /api/messages/enhance; answers EnhanceResponse)',
  })
  @IsOptional()
  @IsBoolean({ message: 'enhance must be true or false.' })
  enhance?: boolean;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @IsOptional()
  @IsInt({ message: ID_MESSAGE('message_type_id') })
  @Min(1, { message: ID_MESSAGE('message_type_id') })
  @Max(MAX_ID, { message: ID_MESSAGE('message_type_id') })
  message_type_id?: number | null;
}

export class UpdateMessageBody {
  @ApiProperty()
  @IsInt({ message: ID_MESSAGE('message_id') })
  @Min(1, { message: ID_MESSAGE('message_id') })
  @Max(MAX_ID, { message: ID_MESSAGE('message_id') })
  message_id: number;

  @ApiPropertyOptional()
  @ValidateIf((o: UpdateMessageBody) => o.content !== undefined)
  @IsString({ message: CONTENT_TYPE_MESSAGE })
  @MaxLength(MAX_CONTENT_CHARS, { message: 'The message is too long.' })
  content?: string;

  @ApiPropertyOptional()
  @ValidateIf((o: UpdateMessageBody) => o.favorite !== undefined)
  @IsBoolean({ message: 'favorite must be true or false.' })
  favorite?: boolean;
}

export class ConversationMessagesQuery extends ScopeQuery {
  @ApiPropertyOptional({ minimum: 1, default: 1, description: 'Page 1 holds the newest messages' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be a whole number.' })
  @Min(1, { message: 'page must be 1 or more.' })
  @Max(MAX_ID, { message: 'page must be a whole number.' })
  page?: number;
}

export class OwnMessagesQuery extends PageQuery {
  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'favorite must be true or false.' })
  favorite?: 'true' | 'false';

  @ApiPropertyOptional()
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: ID_MESSAGE('message_type_id') })
  @Min(1, { message: ID_MESSAGE('message_type_id') })
  @Max(MAX_ID, { message: ID_MESSAGE('message_type_id') })
  message_type_id?: number;
}
