import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import {
  MAX_TRAINING_NAME,
  TRAINING_STAGES,
  TRAINING_STATES,
  type TrainingStage,
  type TrainingState,
} from '@avatar-studio/contracts';
import { MAX_ID } from '../../../common/http/id-param';
import { PageInfo, PageQuery } from '../../../common/http/pagination';
import { IsNameText, IsOptionalNotNull, Trim } from '../../../common/http/validators';
import { TRAINING_NAME_REQUIRED } from '../training-rules';

const ID_MESSAGE = (field: string) => `${field} must be a whole number.`;
const IsTrainingName = () =>
  IsNameText(MAX_TRAINING_NAME, {
    required: TRAINING_NAME_REQUIRED,
    tooLong: `The name must be ${MAX_TRAINING_NAME} characters or fewer.`,
  });
const IsId = (field: string) => (target: object, key: string) => {
  Type(() => Number)(target, key);
  IsInt({ message: ID_MESSAGE(field) })(target, key);
  Min(1, { message: ID_MESSAGE(field) })(target, key);
  Max(MAX_ID, { message: ID_MESSAGE(field) })(target, key);
};

export class TrainingListQuery extends PageQuery {
  @ApiPropertyOptional({ description: "Only this avatar's trainings" })
  @IsOptional()
  @IsId('avatar_id')
  avatar_id?: number;
}

export class TrainingFileDto {
  @ApiProperty()
  file_id: number;

  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'MIME type, from the content' })
  type: string;

  @ApiProperty({ description: 'Bytes' })
  size: number;
}

export class TrainingDto {
  @ApiProperty()
  training_id: number;

  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'The avatar whose knowledge and style the training feeds' })
  avatar_id: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'The dataset (a stored upload); null once deleted',
  })
  file_id: number | null;

  @ApiProperty({ type: TrainingFileDto, nullable: true })
  file: TrainingFileDto | null;

  @ApiProperty()
  user_id: number;

  @ApiProperty({ type: Number, nullable: true, description: 'null = Personal' })
  organization_id: number | null;

  @ApiProperty()
  public: boolean;

  @ApiProperty({ enum: TRAINING_STATES })
  state: TrainingState;

  @ApiProperty({ enum: TRAINING_STAGES, nullable: true })
  stage: TrainingStage | null;

  @ApiProperty({ description: '0-100 of the current or last run' })
  progress: number;

  @ApiProperty({ type: String, nullable: true, description: 'Why the last run failed' })
  error: string | null;

  @ApiProperty({
    description: 'What the runs learned: instructions and examples (empty before the first run)',
  })
  style_guide: string;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: "The avatar file holding the dataset's passages",
  })
  avatar_file_id: number | null;

  @ApiProperty({ description: 'Whether the caller may change it (its owner or a staff admin)' })
  can_manage: boolean;

  @ApiProperty({ type: Date, nullable: true })
  executed_at: Date | null;

  @ApiProperty({ type: Date, nullable: true })
  synced_at: Date | null;

  @ApiProperty({ type: Date, nullable: true })
  refined_at: Date | null;

  @ApiProperty()
  createdAt: Date;

  @ApiProperty()
  updatedAt: Date;
}

export class TrainingResponse {
  @ApiProperty({ type: TrainingDto })
  training: TrainingDto;
}

export class TrainingPageResponse extends PageInfo {
  @ApiProperty({ type: [TrainingDto] })
  trainings: TrainingDto[];

  @ApiProperty({
    description:
      "Whether a run is paid by the scope's own AI key (the organization's), so the cost notice is shown",
  })
  own_key_pays: boolean;
}

export class CreateTrainingBody {
  @ApiProperty({ maxLength: MAX_TRAINING_NAME })
  @Trim()
  @IsTrainingName()
  name: string;

  @ApiProperty({ description: 'The avatar it trains (the caller must be able to change it)' })
  @IsId('avatar_id')
  avatar_id: number;

  @ApiProperty({
    description: 'The dataset, uploaded first with POST /api/files: .txt, .csv, .jsonl, .docx, .pdf or .pptx',
  })
  @IsId('file_id')
  file_id: number;
}

export class UpdateTrainingBody {
  @ApiProperty()
  @IsId('training_id')
  training_id: number;

  @ApiPropertyOptional({ maxLength: MAX_TRAINING_NAME })
  @IsOptionalNotNull()
  @Trim()
  @IsTrainingName()
  name?: string;

  @ApiPropertyOptional({ description: 'A new dataset (read by the next sync or execute)' })
  @IsOptionalNotNull()
  @IsId('file_id')
  file_id?: number;

  @ApiPropertyOptional({ description: 'Staff admins only' })
  @IsOptionalNotNull()
  @IsBoolean({ message: 'public must be true or false.' })
  public?: boolean;
}

export class TrainingIdBody {
  @ApiProperty()
  @IsId('training_id')
  training_id: number;
}
