import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  SETUP_ITEMS,
  SETUP_PROBLEMS,
  SETUP_STATES,
  SETUP_WARNINGS,
  STARTER_CONTENT_STATES,
  type SetupItem,
  type SetupProblem,
  type SetupState,
  type SetupWarning,
  type StarterContentState,
} from '@avatar-studio/contracts';
import { IsIn, IsOptional, Matches } from 'class-validator';

export class SetupItemParam {
  @ApiProperty({ enum: SETUP_ITEMS })
  @IsIn(SETUP_ITEMS, { message: `item must be one of ${SETUP_ITEMS.join(', ')}.` })
  item: SetupItem;
}

export class SetupTestBody {
  @ApiPropertyOptional({
    description: 'Names this test in the `setup_test_output` socket events (the AI check streams its answer)',
    maxLength: 64,
  })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'test_id must be 1-64 letters, digits, - or _.' })
  test_id?: string;
}

export class SetupItemDto {
  @ApiProperty({ enum: SETUP_ITEMS })
  item: SetupItem;

  @ApiProperty({ enum: SETUP_STATES })
  state: SetupState;

  @ApiProperty({ description: 'The banner shows until every required item is done' })
  required: boolean;

  @ApiProperty({ description: 'Whether POST /api/setup/test/{item} tests it' })
  testable: boolean;

  @ApiProperty({ description: 'The back-office path of the field that sets it' })
  link: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'A non-secret detail: the default model, disk or s3, the app name, open or closed...',
  })
  detail: string | null;
}

export class StarterContentDto {
  @ApiProperty({ enum: STARTER_CONTENT_STATES })
  state: StarterContentState;

  @ApiProperty({ description: 'Starter templates there now' })
  templates: number;

  @ApiProperty({ description: 'Starter workflows there now' })
  workflows: number;
}

export class SetupChecklistResponse {
  @ApiProperty({ type: [SetupItemDto] })
  items: SetupItemDto[];

  @ApiProperty({ description: 'Every required item is done' })
  complete: boolean;

  @ApiProperty({ type: StarterContentDto })
  starter: StarterContentDto;
}

export class SetupTestResponse {
  @ApiProperty({ enum: SETUP_ITEMS })
  item: SetupItem;

  @ApiProperty()
  ok: boolean;

  @ApiProperty({ enum: SETUP_PROBLEMS, nullable: true, type: String })
  problem: SetupProblem | null;

  @ApiProperty({ description: 'What happened, in plain English, with what to do when it failed' })
  message: string;

  @ApiProperty({ enum: SETUP_WARNINGS, isArray: true })
  warnings: SetupWarning[];

  @ApiPropertyOptional({ type: [String], description: 'AI: the models the provider lists' })
  models?: string[];

  @ApiPropertyOptional({ description: "AI: the provider's one-line answer" })
  answer?: string;

  @ApiPropertyOptional({ description: 'Web search: how many results the test query found' })
  results?: number;
}
