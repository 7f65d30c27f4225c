import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateBy, ValidateIf } from 'class-validator';
import { MAX_ID } from '../../../common/http/id-param';
import { PageInfo, PageQuery } from '../../../common/http/pagination';
import { IsNameText, IsOptionalNotNull } from '../../../common/http/validators';
import { MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH } from '../../workflows/workflow-rules';
import {
  MAX_VALUES,
  MAX_VALUES_LENGTH,
  STEP_STATUSES,
  VALUES_FORMAT,
  type StepStatus,
} from '../user-workflow-rules';

const ID_MESSAGE = (name: string) => `${name} must be a whole number.`;

/** The comma string or an object; the service reads it (and names what is wrong). */
function IsValuesInput(): PropertyDecorator {
  return ValidateBy({
    name: 'isValuesInput',
    validator: {
      validate: (v: unknown) =>
        (typeof v === 'string' && v.length <= MAX_VALUES_LENGTH) ||
        (v !== null &&
          typeof v === 'object' &&
          !Array.isArray(v) &&
          Object.keys(v).length <= MAX_VALUES &&
          JSON.stringify(v).length <= MAX_VALUES_LENGTH),
      defaultMessage: () => VALUES_FORMAT,
    },
  });
}

const IsUserWorkflowName = () =>
  IsNameText(MAX_NAME_LENGTH, {
    required: "The name can't be empty.",
    tooLong: `The name must be ${MAX_NAME_LENGTH} characters or fewer.`,
  });

const VALUES_SCHEMA = {
  oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }],
  description:
    'Field values: "name=value,name2=value2" (split on commas; the first "=" separates name and value; trimmed) ' +
    'or an object. Every field of the steps needs a non-empty value.',
  example: 'topic=cats,tone=formal',
};

export class UserWorkflowWorkflowDto {
  @ApiProperty()
  workflow_id: number;

  @ApiProperty()
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ description: 'Comma-separated' })
  tags: string;
}

export class UserWorkflowStepTemplateDto {
  @ApiProperty()
  template_id: number;

  @ApiProperty()
  name: string;

  @ApiProperty()
  description: string;
}

export class UserWorkflowTemplateDto {
  @ApiProperty()
  user_workflow_template_id: number;

  @ApiProperty({ description: '1-based position of the step' })
  order: number;

  @ApiProperty({ description: 'The conversation holding the generated content' })
  conversation_id: number;

  @ApiProperty({
    type: UserWorkflowStepTemplateDto,
    nullable: true,
    description: 'null once the template is deleted',
  })
  template: UserWorkflowStepTemplateDto | null;

  @ApiProperty({ enum: STEP_STATUSES })
  status: StepStatus;

  @ApiProperty({ type: String, nullable: true, description: 'Why the step failed' })
  error: string | null;
}

export class UserWorkflowDto {
  @ApiProperty()
  user_workflow_id: number;

  @ApiProperty()
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ type: Number, nullable: true, description: 'null once the workflow is deleted' })
  workflow_id: number | null;

  @ApiProperty({ type: UserWorkflowWorkflowDto, nullable: true })
  workflow: UserWorkflowWorkflowDto | null;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { topic: 'cats' } })
  values: Record<string, string>;

  @ApiProperty({ type: [UserWorkflowTemplateDto], description: 'The steps, in order' })
  user_workflow_templates: UserWorkflowTemplateDto[];

  @ApiProperty()
  createdAt: Date;

  @ApiProperty()
  updatedAt: Date;
}

export class UserWorkflowResponse {
  @ApiProperty({ type: UserWorkflowDto })
  user_workflow: UserWorkflowDto;
}

export class UserWorkflowPageResponse extends PageInfo {
  @ApiProperty({ type: [UserWorkflowDto] })
  user_workflows: UserWorkflowDto[];
}

export class UserWorkflowListQuery extends PageQuery {}

export class StartUserWorkflowBody {
  @ApiProperty()
  @IsInt({ message: ID_MESSAGE('workflow_id') })
  @Min(1, { message: ID_MESSAGE('workflow_id') })
  @Max(MAX_ID, { message: ID_MESSAGE('workflow_id') })
  workflow_id: number;

  @ApiProperty(VALUES_SCHEMA)
  @IsValuesInput()
  values: string | Record<string, string>;

  @ApiPropertyOptional({ maxLength: MAX_NAME_LENGTH, description: "Default: the workflow's name" })
  @IsOptional()
  @IsUserWorkflowName()
  name?: string;

  @ApiPropertyOptional({ description: "Default: the workflow's description" })
  @IsOptionalNotNull()
  @IsString({ message: 'description must be a text.' })
  @MaxLength(MAX_DESCRIPTION_LENGTH, { message: 'The description is too long.' })
  description?: string;
}

/** Left-out fields keep their value; new values are checked like on start but nothing is regenerated. */
export class UpdateUserWorkflowBody {
  @ApiProperty()
  @IsInt({ message: ID_MESSAGE('user_workflow_id') })
  @Min(1, { message: ID_MESSAGE('user_workflow_id') })
  @Max(MAX_ID, { message: ID_MESSAGE('user_workflow_id') })
  user_workflow_id: number;

  @ApiPropertyOptional({ maxLength: MAX_NAME_LENGTH })
  @ValidateIf((o: UpdateUserWorkflowBody) => o.name !== undefined)
  @IsUserWorkflowName()
  name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString({ message: 'description must be a text.' })
  @MaxLength(MAX_DESCRIPTION_LENGTH, { message: 'The description is too long.' })
  description?: string;

  @ApiPropertyOptional(VALUES_SCHEMA)
  @ValidateIf((o: UpdateUserWorkflowBody) => o.values !== undefined)
  @IsValuesInput()
  values?: string | Record<string, string>;
}
