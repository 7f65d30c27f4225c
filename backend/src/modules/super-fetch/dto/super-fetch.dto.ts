import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  DEFAULT_SUPER_FETCH_OUTPUTS,
  MAX_SUPER_FETCH_FEEDBACK,
  MAX_SUPER_FETCH_INPUT,
  MAX_SUPER_FETCH_OUTPUTS,
  SUPER_FETCH_INPUT_KEYS,
  type SuperFetchInputKey,
} from '@avatar-studio/contracts';
import { MAX_ID } from '../../../common/http/id-param';
import { IsNameText } from '../../../common/http/validators';
import { MAX_SUPER_FETCH_MESSAGE } from '../super-fetch-rules';

const OUTPUTS_MESSAGE = `outputs must be a whole number from 1 to ${MAX_SUPER_FETCH_OUTPUTS}.`;
const ASSISTANT_MESSAGE = 'assistant_id must be the assistant_id of a Super Fetch avatar.';
/** An assistant_id as the avatars module makes them (asst_ and hex), bounded. */
export const ASSISTANT_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const inputText = (label: string) => [
  IsOptional(),
  IsString({ message: `${label} must be text.` }),
  MaxLength(MAX_SUPER_FETCH_INPUT, {
    message: `${label} must be ${MAX_SUPER_FETCH_INPUT} characters or fewer.`,
  }),
];
const apply =
  (decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) => {
    for (const d of decorators) d(target, key);
  };

/** The nine inputs' values, by key; required ones are checked by the service (an editable one may stay empty). */
export class SuperFetchValuesDto {
  @ApiPropertyOptional({ example: 'Write a LinkedIn post' })
  @apply(inputText('Task'))
  task?: string;

  @ApiPropertyOptional({ example: 'Cold brew coffee' })
  @apply(inputText('Topic'))
  topic?: string;

  @ApiPropertyOptional({ description: 'Target Audience', example: 'Students' })
  @apply(inputText('Target Audience'))
  target?: string;

  @ApiPropertyOptional({ description: 'Persona', example: 'A friendly barista' })
  @apply(inputText('Persona'))
  person?: string;

  @ApiPropertyOptional({ example: 'Warm' })
  @apply(inputText('Tone'))
  tone?: string;

  @ApiPropertyOptional({ description: 'Formula', example: 'AIDA' })
  @apply(inputText('Formula'))
  format?: string;

  @ApiPropertyOptional()
  @apply(inputText('Examples'))
  examples?: string;

  @ApiPropertyOptional({ description: "Call to Action (empty: 'There is no call to action on this prompt')" })
  @apply(inputText('Call to Action'))
  cta?: string;

  @ApiPropertyOptional({ description: 'Manual Prompt (extra instructions)' })
  @apply(inputText('Manual Prompt'))
  prompt?: string;
}

export class SuperFetchFeedbackDto {
  @ApiProperty({
    type: Boolean,
    nullable: true,
    description: 'Thumbs up (true), down (false) or none (null)',
  })
  @ValidateIf((_o: object, v: unknown) => v !== null)
  @IsBoolean({ message: 'liked must be true, false or null.' })
  liked: boolean | null;

  @ApiProperty({ maxLength: MAX_SUPER_FETCH_FEEDBACK, description: 'The changes asked for' })
  @IsNameText(MAX_SUPER_FETCH_FEEDBACK, {
    required: "The feedback can't be empty.",
    tooLong: `The feedback must be ${MAX_SUPER_FETCH_FEEDBACK} characters or fewer.`,
  })
  text: string;
}

/** What every Super Fetch generation call names: the assistant, the scope, the model and an attached file. */
class SuperFetchTarget {
  @ApiProperty({
    example: 'asst_3f9a…',
    description: 'The Super Fetch avatar (GET /api/avatars/super-fetch)',
  })
  @IsString({ message: ASSISTANT_MESSAGE })
  @Matches(ASSISTANT_ID_PATTERN, { message: ASSISTANT_MESSAGE })
  assistant_id: string;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'The scope; when sent it must match ?organization_id= (null = Personal)',
  })
  @IsOptional()
  @IsInt({ message: 'organization_id must be a whole number.' })
  @Min(1, { message: 'organization_id must be a whole number.' })
  @Max(MAX_ID, { message: 'organization_id must be a whole number.' })
  organization_id?: number | null;

  @ApiPropertyOptional({
    description:
      'An uploaded file (POST /api/files) of type docx, pdf, pptx or txt whose text the model reads',
  })
  @IsOptional()
  @IsInt({ message: 'file_id must be a whole number.' })
  @Min(1, { message: 'file_id must be a whole number.' })
  @Max(MAX_ID, { message: 'file_id must be a whole number.' })
  file_id?: number;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Absent = the default model' })
  @IsOptional()
  @IsString({ message: 'model must be text.' })
  @MaxLength(100, { message: 'model must be 100 characters or fewer.' })
  model?: string | null;
}

/** POST /super_fetch: composed prompts, one generation each. */
export class SuperFetchMessagesBody extends SuperFetchTarget {
  @ApiProperty({ type: [String], minItems: 1, maxItems: MAX_SUPER_FETCH_OUTPUTS })
  @IsArray({ message: 'messages must be a list of prompts.' })
  @ArrayMinSize(1, { message: 'messages must hold at least one prompt.' })
  @ArrayMaxSize(MAX_SUPER_FETCH_OUTPUTS, {
    message: `messages must hold at most ${MAX_SUPER_FETCH_OUTPUTS} prompts.`,
  })
  @IsString({ each: true, message: 'messages must be a list of prompts.' })
  @Matches(/\S/, { each: true, message: "A message can't be empty." })
  @MaxLength(MAX_SUPER_FETCH_MESSAGE, {
    each: true,
    message: `A message must be ${MAX_SUPER_FETCH_MESSAGE} characters or fewer.`,
  })
  messages: string[];
}

/** POST /super_fetch/v2: the nine inputs, the outputs count and optional feedback on the previous output. */
export class SuperFetchGenerateBody extends SuperFetchTarget {
  @ApiProperty({ type: SuperFetchValuesDto })
  @IsObject({ message: 'values must be an object of the inputs.' })
  @ValidateNested()
  @Type(() => SuperFetchValuesDto)
  values: SuperFetchValuesDto;

  @ApiPropertyOptional({
    enum: SUPER_FETCH_INPUT_KEYS,
    isArray: true,
    description: 'Inputs kept as [Label] fields in the prompt instead of their value',
  })
  @IsOptional()
  @IsArray({ message: 'editable must be a list of input keys.' })
  @ArrayMaxSize(SUPER_FETCH_INPUT_KEYS.length, { message: 'editable must be a list of input keys.' })
  @IsIn(SUPER_FETCH_INPUT_KEYS, {
    each: true,
    message: `editable must list input keys among ${SUPER_FETCH_INPUT_KEYS.join(', ')}.`,
  })
  editable?: SuperFetchInputKey[];

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_SUPER_FETCH_OUTPUTS, default: DEFAULT_SUPER_FETCH_OUTPUTS })
  @IsOptional()
  @IsInt({ message: OUTPUTS_MESSAGE })
  @Min(1, { message: OUTPUTS_MESSAGE })
  @Max(MAX_SUPER_FETCH_OUTPUTS, { message: OUTPUTS_MESSAGE })
  outputs?: number;

  @ApiPropertyOptional({ type: SuperFetchFeedbackDto, description: 'Feedback on the previous output' })
  @IsOptional()
  @IsObject({ message: 'feedback must be an object with liked and text.' })
  @ValidateNested()
  @Type(() => SuperFetchFeedbackDto)
  feedback?: SuperFetchFeedbackDto;
}

export class SuperFetchGenerateResponse {
  @ApiProperty({ description: 'Names the request in every `super_fetch_outputs` event' })
  request_id: string;

  @ApiProperty({ type: [String], description: 'One per output, in order; each may be stopped on its own' })
  generation_ids: string[];
}

export class SuperFetchMessageDto {
  @ApiProperty()
  message_id: number;

  @ApiProperty({ enum: ['user', 'assistant'] })
  role: 'user' | 'assistant';

  @ApiProperty({ description: 'The prompt sent (user) or the output (assistant)' })
  content: string;

  @ApiProperty()
  request_id: string;

  @ApiProperty({ type: Boolean, nullable: true })
  liked: boolean | null;

  @ApiProperty()
  createdAt: Date;

  @ApiProperty()
  updatedAt: Date;
}

export class SuperFetchHistoryResponse {
  @ApiProperty({ type: [SuperFetchMessageDto], description: 'Oldest first, the latest 100' })
  messages: SuperFetchMessageDto[];
}

export class SuperFetchResetResponse {
  @ApiProperty({ example: 'Super Fetcch reset.' })
  message: string;
}
