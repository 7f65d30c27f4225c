import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_ID } from '../../../common/http/id-param';
import { PageInfo, PageQuery } from '../../../common/http/pagination';
import { IsNameText, Trim } from '../../../common/http/validators';
import { MAX_TUTORIAL_NAME, TUTORIAL_LANGUAGES, type TutorialLanguage } from '../tutorial-rules';

const EMPTY = "The value can't be empty";
const LANGUAGE_MESSAGE = `language must be one of ${TUTORIAL_LANGUAGES.join(', ')}.`;
const ORDER_MESSAGE = 'order must be a whole number from 0 to 10000.';

export class TutorialDto {
  @ApiProperty()
  tutorial_id: number;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: String, nullable: true, description: 'An uploaded image’s src' })
  thumbnail: string | null;

  @ApiProperty()
  order: number;

  @ApiProperty({ description: 'A YouTube video id (11 characters) or an uploaded video’s src' })
  src: string;

  @ApiProperty({ enum: TUTORIAL_LANGUAGES })
  language: string;

  @ApiProperty()
  createdAt: Date;

  @ApiProperty()
  updatedAt: Date;
}

export class TutorialResponse {
  @ApiProperty({ type: TutorialDto })
  tutorial: TutorialDto;
}

export class TutorialPageResponse extends PageInfo {
  @ApiProperty({ type: [TutorialDto] })
  tutorials: TutorialDto[];
}

/** `?language=&query=&page=&limit=` in order, then oldest first. */
export class TutorialListQuery extends PageQuery {
  @ApiPropertyOptional({ enum: TUTORIAL_LANGUAGES, description: 'Absent = every language' })
  @IsOptional()
  @IsIn(TUTORIAL_LANGUAGES, { message: LANGUAGE_MESSAGE })
  language?: TutorialLanguage;
}

export class CreateTutorialBody {
  @ApiProperty({ maxLength: MAX_TUTORIAL_NAME })
  @Trim()
  @IsNameText(MAX_TUTORIAL_NAME, {
    required: EMPTY,
    tooLong: `The name must be ${MAX_TUTORIAL_NAME} characters or fewer.`,
  })
  name: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'An uploaded image’s src (POST /api/files)',
  })
  @IsOptional()
  @IsString({ message: 'thumbnail must be text.' })
  @MaxLength(300, { message: 'thumbnail must be 300 characters or fewer.' })
  thumbnail?: string | null;

  @ApiPropertyOptional({ minimum: 0, maximum: 10000, default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: ORDER_MESSAGE })
  @Min(0, { message: ORDER_MESSAGE })
  @Max(10000, { message: ORDER_MESSAGE })
  order?: number;

  @ApiProperty({
    description:
      'A YouTube link or video id, or an uploaded video’s src (POST /api/files); stored as the id or src',
  })
  @Trim()
  @IsNameText(300, { required: EMPTY, tooLong: 'The video link must be 300 characters or fewer.' })
  src: string;

  @ApiPropertyOptional({ enum: TUTORIAL_LANGUAGES, default: 'en' })
  @IsOptional()
  @IsIn(TUTORIAL_LANGUAGES, { message: LANGUAGE_MESSAGE })
  language?: TutorialLanguage;
}

export class UpdateTutorialBody {
  @ApiProperty()
  @IsInt({ message: 'tutorial_id must be a whole number.' })
  @Min(1, { message: 'tutorial_id must be a whole number.' })
  @Max(MAX_ID, { message: 'tutorial_id must be a whole number.' })
  tutorial_id: number;

  @ApiPropertyOptional({ maxLength: MAX_TUTORIAL_NAME })
  @IsOptional()
  @Trim()
  @IsNameText(MAX_TUTORIAL_NAME, {
    required: EMPTY,
    tooLong: `The name must be ${MAX_TUTORIAL_NAME} characters or fewer.`,
  })
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString({ message: 'thumbnail must be text.' })
  @MaxLength(300, { message: 'thumbnail must be 300 characters or fewer.' })
  thumbnail?: string | null;

  @ApiPropertyOptional({ minimum: 0, maximum: 10000 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: ORDER_MESSAGE })
  @Min(0, { message: ORDER_MESSAGE })
  @Max(10000, { message: ORDER_MESSAGE })
  order?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @Trim()
  @IsNameText(300, { required: EMPTY, tooLong: 'The video link must be 300 characters or fewer.' })
  src?: string;

  @ApiPropertyOptional({ enum: TUTORIAL_LANGUAGES })
  @IsOptional()
  @IsIn(TUTORIAL_LANGUAGES, { message: LANGUAGE_MESSAGE })
  language?: TutorialLanguage;
}
