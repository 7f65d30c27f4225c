import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateBy, ValidateIf } from 'class-validator';
import { MAX_ID } from '../../../common/http/id-param';
import { PageInfo, PageQuery } from '../../../common/http/pagination';
import { IsNameText, IsTagInput } from '../../../common/http/validators';
import { TemplateFieldDto } from '../../templates/dto/template.dto';
import { MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, MAX_STEPS } from '../workflow-rules';

const ID_MESSAGE = 'workflow_id must be a whole number.';

const IsWorkflowName = () =>
  IsNameText(MAX_NAME_LENGTH, {
    required: "The name can't be empty.",
    tooLong: `The name must be ${MAX_NAME_LENGTH} characters or fewer.`,
  });

/** The problem with a template_ids value, or null when it is a valid list of steps. */
function templateIdsProblem(v: unknown): string | null {
  if (v === undefined || v === null) return 'A workflow needs at least one template.';
  if (!Array.isArray(v)) return 'template_ids must be a list of template ids.';
  if (v.length === 0) return 'A workflow needs at least one template.';
  if (v.length > MAX_STEPS) return `A workflow can have at most ${MAX_STEPS} templates.`;
  if (!v.every((id) => Number.isInteger(id) && (id as number) >= 1 && (id as number) <= MAX_ID))
    return 'Each template id must be a whole number.';
  if (new Set(v).size !== v.length) return 'Each template can be in a workflow only once.';
  return null;
}

/** One rule and one message for the list of steps, so the form shows the one thing to fix. */
function IsTemplateIds(): PropertyDecorator {
  return ValidateBy({
    name: 'isTemplateIds',
    validator: {
      validate: (v: unknown) => templateIdsProblem(v) === null,
      defaultMessage: (args) => templateIdsProblem(args?.value) ?? 'template_ids is not valid.',
    },
  });
}

export class WorkflowTemplateDto {
  @ApiProperty()
  template_id: number;

  @ApiProperty()
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ description: '1-based position of the step' })
  order: number;
}

export class WorkflowDto {
  @ApiProperty()
  workflow_id: number;

  @ApiProperty({ maxLength: MAX_NAME_LENGTH })
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ example: 'blog,seo', description: 'Comma-separated, as the spec' })
  tags: string;

  @ApiProperty({ type: [WorkflowTemplateDto], description: 'The steps, in order' })
  templates: WorkflowTemplateDto[];

  @ApiProperty({
    type: [TemplateFieldDto],
    description:
      'The placeholders of every step, in order, each name once; [name[a/b/c]] gives a select with those options',
  })
  fields: TemplateFieldDto[];

  @ApiProperty()
  createdAt: Date;

  @ApiProperty()
  updatedAt: Date;
}

export class WorkflowResponse {
  @ApiProperty({ type: WorkflowDto })
  workflow: WorkflowDto;
}

export class WorkflowTagDto {
  @ApiProperty()
  tag: string;

  @ApiProperty({ description: 'Workflows matching the search that carry the tag' })
  count: number;
}

export class WorkflowPageResponse extends PageInfo {
  @ApiProperty({ type: [WorkflowDto] })
  workflows: WorkflowDto[];

  @ApiProperty({
    type: [WorkflowTagDto],
    description: 'Tags of the workflows matching `query` (before the tag filter), with counts',
  })
  tags: WorkflowTagDto[];
}

export class WorkflowListQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Only workflows carrying this tag' })
  @IsOptional()
  @IsString({ message: 'tag must be a text.' })
  @MaxLength(100, { message: 'The tag is too long.' })
  tag?: string;
}

export class CreateWorkflowBody {
  @ApiProperty({ minLength: 1, maxLength: MAX_NAME_LENGTH })
  @IsWorkflowName()
  name: string;

  @ApiPropertyOptional({ default: '' })
  @IsOptional()
  @IsString({ message: 'description must be a text.' })
  @MaxLength(MAX_DESCRIPTION_LENGTH, { message: 'The description is too long.' })
  description?: string;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description: 'Comma string or list; trimmed, deduplicated, each 1-100 characters, at most 20',
  })
  @IsOptional()
  @IsTagInput()
  tags?: string | string[] | null;

  @ApiProperty({
    type: [Number],
    minItems: 1,
    maxItems: MAX_STEPS,
    description: 'The steps in order: existing templates, each once',
  })
  @IsTemplateIds()
  template_ids: number[];
}

/** Left-out fields keep their value. */
export class UpdateWorkflowBody {
  @ApiProperty()
  @IsInt({ message: ID_MESSAGE })
  @Min(1, { message: ID_MESSAGE })
  @Max(MAX_ID, { message: ID_MESSAGE })
  workflow_id: number;

  @ApiPropertyOptional({ minLength: 1, maxLength: MAX_NAME_LENGTH })
  // null is refused rather than ignored: a workflow cannot lose its name.
  @ValidateIf((o: UpdateWorkflowBody) => o.name !== undefined)
  @IsWorkflowName()
  name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString({ message: 'description must be a text.' })
  @MaxLength(MAX_DESCRIPTION_LENGTH, { message: 'The description is too long.' })
  description?: string;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description: 'Comma string or list; null or empty clears them',
  })
  @IsOptional()
  @IsTagInput()
  tags?: string | string[] | null;

  @ApiPropertyOptional({
    type: [Number],
    minItems: 1,
    maxItems: MAX_STEPS,
    description: 'Replaces the steps',
  })
  @ValidateIf((o: UpdateWorkflowBody) => o.template_ids !== undefined)
  @IsTemplateIds()
  template_ids?: number[];
}
