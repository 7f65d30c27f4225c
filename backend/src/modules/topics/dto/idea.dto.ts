import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PageInfo, PageQuery } from '../../../common/http/pagination';
import { IsNameText, Trim } from '../../../common/http/validators';
import {
  DEFAULT_IDEAS,
  IDEA_LANGUAGES,
  MAX_AUDIENCE,
  MAX_IDEAS,
  MAX_POST_TEXT,
  MAX_SUBJECT,
  PLATFORMS,
  type IdeaKind,
  type IdeaLanguage,
  type Platform,
} from '../idea-rules';

const EMPTY = "The value can't be empty";
const COUNT_MESSAGE = `count must be a whole number from 1 to ${MAX_IDEAS}.`;

class IdeaCount {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_IDEAS, default: DEFAULT_IDEAS })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: COUNT_MESSAGE })
  @Min(1, { message: COUNT_MESSAGE })
  @Max(MAX_IDEAS, { message: COUNT_MESSAGE })
  count?: number;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Absent = the default model' })
  @IsOptional()
  @IsString({ message: 'model must be text.' })
  @MaxLength(100, { message: 'model must be 100 characters or fewer.' })
  model?: string | null;
}

export class GenerateTopicsBody extends IdeaCount {
  @ApiProperty({ maxLength: MAX_SUBJECT, example: 'Home coffee brewing' })
  @Trim()
  @IsNameText(MAX_SUBJECT, {
    required: EMPTY,
    tooLong: `subject must be ${MAX_SUBJECT} characters or fewer.`,
  })
  subject: string;

  @ApiPropertyOptional({ maxLength: MAX_AUDIENCE, example: 'Students on a budget' })
  @IsOptional()
  @Trim()
  @IsString({ message: 'audience must be text.' })
  @MaxLength(MAX_AUDIENCE, { message: `audience must be ${MAX_AUDIENCE} characters or fewer.` })
  audience?: string;

  @ApiPropertyOptional({ enum: IDEA_LANGUAGES, default: 'en' })
  @IsOptional()
  @IsIn(IDEA_LANGUAGES, { message: `language must be one of ${IDEA_LANGUAGES.join(', ')}.` })
  language?: IdeaLanguage;
}

export class GenerateHashtagsBody extends IdeaCount {
  @ApiProperty({ maxLength: MAX_POST_TEXT, description: 'The post (or its subject) to tag' })
  @Trim()
  @IsNameText(MAX_POST_TEXT, {
    required: EMPTY,
    tooLong: `text must be ${MAX_POST_TEXT} characters or fewer.`,
  })
  text: string;

  @ApiPropertyOptional({ enum: PLATFORMS, default: 'instagram' })
  @IsOptional()
  @IsIn(PLATFORMS, { message: `platform must be one of ${PLATFORMS.join(', ')}.` })
  platform?: Platform;
}

export class GenerateIdeasResponse {
  @ApiProperty({
    description:
      'The text streams as `topics_output` or `hashtags_output` events with this id; the last (done: true) carries the saved idea_id',
  })
  generation_id: string;
}

export class IdeaDto {
  @ApiProperty()
  idea_id: number;

  @ApiProperty({ enum: ['topics', 'hashtags'] })
  kind: IdeaKind;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'What was asked: {subject, audience, count, language} or {text, platform, count}',
  })
  input: Record<string, string | number | null>;

  @ApiProperty({ type: [String], description: 'The ideas (hashtags with their #)' })
  items: string[];

  @ApiProperty({ description: 'The model’s text as produced' })
  content: string;

  @ApiProperty()
  createdAt: Date;
}

export class IdeaPageResponse extends PageInfo {
  @ApiProperty({ type: [IdeaDto] })
  ideas: IdeaDto[];
}

/** `?page=&limit=` (query is accepted and ignored: history is listed newest first). */
export class IdeaListQuery extends PageQuery {}
