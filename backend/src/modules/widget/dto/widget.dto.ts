import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import {
  MAX_WIDGET_MESSAGE,
  MAX_WIDGET_NAME,
  MAX_WIDGET_ORIGINS,
  WIDGET_ACCENT_PATTERN,
  WIDGET_LIMIT_BOUNDS,
  WIDGET_LIMIT_DEFAULTS,
  WIDGET_MESSAGES,
} from '@avatar-studio/contracts';
import { MAX_ID } from '../../../common/http/id-param';
import { PageInfo, PageQuery } from '../../../common/http/pagination';
import { IsNameText, IsOptionalNotNull, Trim } from '../../../common/http/validators';

const bound = (field: keyof typeof WIDGET_LIMIT_BOUNDS) => {
  const { min, max } = WIDGET_LIMIT_BOUNDS[field];
  const message = `${field} must be a whole number from ${min} to ${max}.`;
  return [IsInt({ message }), Min(min, { message }), Max(max, { message })];
};
const limitDoc = (field: keyof typeof WIDGET_LIMIT_BOUNDS) => ({
  minimum: WIDGET_LIMIT_BOUNDS[field].min,
  maximum: WIDGET_LIMIT_BOUNDS[field].max,
  description: `Default ${WIDGET_LIMIT_DEFAULTS[field]}`,
});
const apply =
  (...decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) => {
    for (const d of decorators) d(target, key);
  };

/** What Generate sends (and an edit may change). */
export class WidgetFields {
  @ApiProperty({ description: 'The avatar answering (not a Super Fetch one)' })
  @IsInt({ message: WIDGET_MESSAGES.selectAvatar })
  @Min(1, { message: WIDGET_MESSAGES.selectAvatar })
  @Max(MAX_ID, { message: WIDGET_MESSAGES.selectAvatar })
  avatar_id: number;

  @ApiProperty({ maxLength: MAX_WIDGET_NAME, example: 'Support' })
  @Trim()
  @IsNameText(MAX_WIDGET_NAME, {
    required: WIDGET_MESSAGES.nameRequired,
    tooLong: `The widget name must be ${MAX_WIDGET_NAME} characters or fewer.`,
  })
  name: string;

  @ApiPropertyOptional({
    example: '#ff0000',
    description: 'Six hex digits, with or without #; default #ff0000',
  })
  @IsOptionalNotNull()
  @IsString({ message: 'accent_color must be a colour like #ff0000.' })
  @Matches(WIDGET_ACCENT_PATTERN, { message: 'accent_color must be a colour like #ff0000.' })
  accent_color?: string;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'A public image among your files' })
  @IsOptional()
  @IsInt({ message: 'image_file_id must be a file id.' })
  @Min(1, { message: 'image_file_id must be a file id.' })
  @Max(MAX_ID, { message: 'image_file_id must be a file id.' })
  image_file_id?: number | null;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_WIDGET_ORIGINS,
    example: ['https://www.example.com'],
    description: 'Sites (scheme://host[:port]) the widget answers on',
  })
  @IsOptionalNotNull()
  @IsArray({ message: 'allowed_origins must be a list of site addresses.' })
  @ArrayMaxSize(MAX_WIDGET_ORIGINS, {
    message: `A widget may be allowed on at most ${MAX_WIDGET_ORIGINS} sites.`,
  })
  @IsString({ each: true, message: 'allowed_origins must be a list of site addresses.' })
  @MaxLength(255, { each: true, message: 'A site address must be 255 characters or fewer.' })
  allowed_origins?: string[];

  @ApiPropertyOptional(limitDoc('messages_per_minute'))
  @IsOptionalNotNull()
  @apply(...bound('messages_per_minute'))
  messages_per_minute?: number;

  @ApiPropertyOptional(limitDoc('words_per_day'))
  @IsOptionalNotNull()
  @apply(...bound('words_per_day'))
  words_per_day?: number;

  @ApiPropertyOptional(limitDoc('max_concurrent_streams'))
  @IsOptionalNotNull()
  @apply(...bound('max_concurrent_streams'))
  max_concurrent_streams?: number;
}

export class CreateWidgetBody extends WidgetFields {}

// Left-out fields keep their value; an explicit null is validated (and refused) rather than skipped.
export class UpdateWidgetBody extends PartialType(WidgetFields, { skipNullProperties: false }) {
  @ApiPropertyOptional({ description: 'A disabled widget tells its visitors it is not available' })
  @IsOptionalNotNull()
  @IsBoolean({ message: 'disabled must be true or false.' })
  disabled?: boolean;
}

export class WidgetListQuery extends PageQuery {}

export class WidgetUsageDto {
  @ApiProperty() conversations: number;
  @ApiProperty() messages: number;
  @ApiProperty({ description: 'Words of every answer' }) words: number;
  @ApiProperty({ description: 'Words of today’s answers (UTC), against words_per_day' }) words_today: number;
}

export class WidgetDto {
  @ApiProperty() widget_id: number;
  @ApiProperty() user_id: number;
  @ApiProperty({ type: Number, nullable: true }) organization_id: number | null;
  @ApiProperty() avatar_id: number;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Six hex digits without #' }) accent_color: string;
  @ApiProperty({ type: Number, nullable: true }) image_file_id: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'The button image’s address' })
  image_url: string | null;
  @ApiProperty({ type: [String] }) allowed_origins: string[];
  @ApiProperty() messages_per_minute: number;
  @ApiProperty() words_per_day: number;
  @ApiProperty() max_concurrent_streams: number;
  @ApiProperty() disabled: boolean;
  @ApiProperty({ description: 'The key the embed snippet carries' }) public_key: string;
  @ApiProperty({ type: WidgetUsageDto }) usage: WidgetUsageDto;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class WidgetPageResponse extends PageInfo {
  @ApiProperty({ type: [WidgetDto] }) widgets: WidgetDto[];
}

// ---------------------------------------------------------------- visitors

export class StartVisitorSessionBody {
  @ApiPropertyOptional({
    description: 'The token of an earlier visit (even expired): the conversation goes on where it was',
  })
  @IsOptional()
  @IsString({ message: 'resume_token must be text.' })
  @MaxLength(2000, { message: 'resume_token is too long.' })
  resume_token?: string;
}

export class WidgetAppearanceDto {
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Six hex digits without #' }) accent_color: string;
  @ApiProperty({ type: String, nullable: true }) image_url: string | null;
  @ApiProperty({ description: 'The avatar’s name' }) avatar_name: string;
}

export class VisitorSessionResponse {
  @ApiProperty({ description: 'Send as `Authorization: Bearer …` to this widget’s visitor routes only' })
  token: string;
  @ApiProperty({ description: 'Seconds the token lives' }) expires_in: number;
  @ApiProperty() visitor_id: string;
  @ApiProperty() conversation_id: number;
  @ApiProperty({ type: WidgetAppearanceDto }) widget: WidgetAppearanceDto;
}

export class VisitorMessageBody {
  @ApiProperty({ maxLength: MAX_WIDGET_MESSAGE })
  @Trim()
  @IsNameText(MAX_WIDGET_MESSAGE, {
    required: 'Please type a message.',
    tooLong: `A message must be ${MAX_WIDGET_MESSAGE} characters or fewer.`,
  })
  text: string;
}

export class VisitorMessageDto {
  @ApiProperty() message_id: number;
  @ApiProperty({ enum: ['user', 'assistant'] }) role: 'user' | 'assistant';
  @ApiProperty() content: string;
  @ApiProperty() createdAt: Date;
}

export class VisitorHistoryResponse {
  @ApiProperty({ type: [VisitorMessageDto] }) messages: VisitorMessageDto[];
}
