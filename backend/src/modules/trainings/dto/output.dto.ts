import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import {
  MAX_OUTPUT_CONTENT,
  MAX_OUTPUT_PROMPT,
  MAX_RATING_NOTE,
  OUTPUT_RATINGS,
  OUTPUT_STATUSES,
  type OutputRating,
  type OutputStatus,
} from '@avatar-studio/contracts';
import { MAX_ID } from '../../../common/http/id-param';
import { PageInfo, PageQuery } from '../../../common/http/pagination';
import { IsNameText, IsOptionalNotNull } from '../../../common/http/validators';
import { INPUT_EMPTY } from '../../avatars/avatar-rules';

const ID_MESSAGE = (field: string) => `${field} must be a whole number.`;
const IsId = (field: string) => (target: object, key: string) => {
  Type(() => Number)(target, key);
  IsInt({ message: ID_MESSAGE(field) })(target, key);
  Min(1, { message: ID_MESSAGE(field) })(target, key);
  Max(MAX_ID, { message: ID_MESSAGE(field) })(target, key);
};
const IsPrompt = () =>
  IsNameText(MAX_OUTPUT_PROMPT, {
    required: INPUT_EMPTY,
    tooLong: `The text must be ${MAX_OUTPUT_PROMPT} characters or fewer.`,
  });
const IsContent = () =>
  IsNameText(MAX_OUTPUT_CONTENT, {
    required: INPUT_EMPTY,
    tooLong: 'The file length is too large, please remove text to save',
  });

export class OutputListQuery extends PageQuery {}

export class OutputDto {
  @ApiProperty()
  output_id: number;

  @ApiProperty()
  avatar_id: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'The training whose style guide it was written with',
  })
  training_id: number | null;

  @ApiProperty({ description: 'What was asked' })
  prompt: string;

  @ApiProperty({ type: String, nullable: true, description: 'The text; null while it is generated' })
  content: string | null;

  @ApiProperty({ enum: OUTPUT_STATUSES })
  status: OutputStatus;

  @ApiProperty({ enum: OUTPUT_RATINGS, nullable: true })
  rating: OutputRating | null;

  @ApiProperty({ type: String, nullable: true })
  rating_note: string | null;

  @ApiProperty()
  createdAt: Date;

  @ApiProperty()
  updatedAt: Date;
}

export class OutputResponse {
  @ApiProperty({ type: OutputDto })
  output: OutputDto;
}

export class OutputPageResponse extends PageInfo {
  @ApiProperty({ type: [OutputDto] })
  outputs: OutputDto[];
}

/** An avatar, or a training (whose avatar writes in its style guide). */
class OutputSource {
  @ApiPropertyOptional({ description: 'Required unless training_id is given' })
  @ValidateIf((o: OutputSource) => o.training_id === undefined || o.avatar_id !== undefined)
  @IsId('avatar_id')
  avatar_id?: number;

  @ApiPropertyOptional({ description: "Write with this training's style guide (and its avatar)" })
  @IsOptional()
  @IsId('training_id')
  training_id?: number;
}

export class CreateOutputBody extends OutputSource {
  @ApiProperty({ maxLength: MAX_OUTPUT_PROMPT })
  @IsPrompt()
  prompt: string;

  @ApiProperty({ maxLength: MAX_OUTPUT_CONTENT })
  @IsContent()
  content: string;
}

export class GenerateOutputBody extends OutputSource {
  @ApiProperty({ maxLength: MAX_OUTPUT_PROMPT, description: 'What to write' })
  @IsPrompt()
  prompt: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Absent = the default model' })
  @IsOptional()
  @IsString({ message: 'model must be text.' })
  @MaxLength(100, { message: 'model must be 100 characters or fewer.' })
  model?: string | null;
}

export class OutputMessageBody {
  @ApiProperty({ description: 'The output to write again' })
  @IsId('output_id')
  output_id: number;

  @ApiProperty({ maxLength: MAX_OUTPUT_PROMPT, description: 'The changes wanted' })
  @IsPrompt()
  message: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Absent = the default model' })
  @IsOptional()
  @IsString({ message: 'model must be text.' })
  @MaxLength(100, { message: 'model must be 100 characters or fewer.' })
  model?: string | null;
}

export class RateOutputBody {
  @ApiProperty()
  @IsId('output_id')
  output_id: number;

  @ApiProperty({ enum: OUTPUT_RATINGS, description: 'Thumbs up or down' })
  @IsIn(OUTPUT_RATINGS, { message: 'rating must be up or down.' })
  rating: OutputRating;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_RATING_NOTE })
  @IsOptional()
  @IsString({ message: 'note must be text.' })
  @MaxLength(MAX_RATING_NOTE, { message: `note must be ${MAX_RATING_NOTE} characters or fewer.` })
  note?: string | null;
}

export class UpdateOutputBody {
  @ApiProperty()
  @IsId('output_id')
  output_id: number;

  @ApiProperty({ maxLength: MAX_OUTPUT_CONTENT })
  @IsOptionalNotNull()
  @IsContent()
  content: string;
}

export class GenerateOutputResponse extends OutputResponse {}
