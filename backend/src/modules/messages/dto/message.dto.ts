import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
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
import { PageQuery, ScopeQuery } from '../../../common/http/pagination';
import { MAX_ID } from '../../conversations/dto/conversation.dto';

const ID_MESSAGE = (field: string) => `${field} must be a whole number.`;
const CONTENT_TYPE_MESSAGE = 'The message must be text.';
/** Far above the token limit (7500 × 4 characters); stops huge bodies before the service measures them. */
const MAX_CONTENT_CHARS = 200_000;

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

  @ApiProperty({ type: String, nullable: true })
  prompt: string | null;

  @ApiProperty({ type: Number, nullable: true, description: 'On an answer: the message it answers' })
  user_message_id: number | null;

  @ApiProperty({ type: Number, nullable: true })
  message_type_id: number | null;

  @ApiProperty({ type: String, nullable: true })
  model: string | null;

  @ApiProperty({ description: 'Words charged for this answer' })
  words: number;

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

export class MessagePageResponse {
  @ApiProperty({ type: [MessageDto] })
  messages: MessageDto[];

  @ApiProperty()
  total: number;

  @ApiProperty()
  page: number;

  @ApiProperty()
  limit: number;
}

export class SendMessageBody {
  @ApiProperty({ description: 'At least 1 character; at most 7500 estimated tokens (length / 4)' })
  @IsString({ message: CONTENT_TYPE_MESSAGE })
  @MaxLength(MAX_CONTENT_CHARS, { message: 'The message is too long.' })
  content: string;

  @ApiProperty()
  @IsInt({ message: ID_MESSAGE('conversation_id') })
  @Min(1, { message: ID_MESSAGE('conversation_id') })
  @Max(MAX_ID, { message: ID_MESSAGE('conversation_id') })
  conversation_id: number;

  @ApiPropertyOptional({ type: String, nullable: true, description: "Absent = the conversation's model" })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  model?: string | null;

  @ApiPropertyOptional({ default: true, description: 'false = answer with the complete message' })
  @IsOptional()
  @IsBoolean({ message: 'stream must be true or false.' })
  stream?: boolean;

  @ApiPropertyOptional({ description: 'Not available: true is refused with code search_unavailable' })
  @IsOptional()
  @IsBoolean({ message: 'searchOnInternet must be true or false.' })
  searchOnInternet?: boolean;

  @ApiPropertyOptional({ description: 'Accepted for the client; has no effect yet' })
  @IsOptional()
  @IsBoolean({ message: 'saveOnConversation must be true or false.' })
  saveOnConversation?: boolean;

  @ApiPropertyOptional({ description: 'Accepted for the client; has no effect yet' })
  @IsOptional()
  @IsBoolean({ message: 'learnFromPrevResponse must be true or false.' })
  learnFromPrevResponse?: boolean;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'Accepted for the client; has no effect yet',
  })
  @IsOptional()
  @IsInt({ message: ID_MESSAGE('avatar_id') })
  avatar_id?: number | null;

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
