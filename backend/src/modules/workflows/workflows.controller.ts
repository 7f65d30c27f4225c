import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { IdParam } from '../../common/http/id-param';
import {
  CreateWorkflowBody,
  UpdateWorkflowBody,
  WorkflowListQuery,
  WorkflowPageResponse,
  WorkflowResponse,
} from './dto/workflow.dto';
import { WorkflowsService } from './workflows.service';

@ApiTags('workflows')
@Controller('workflows')
@Authenticated()
export class WorkflowsController {
  constructor(private readonly workflows: WorkflowsService) {}

  @Get()
  @ApiOperation({
    summary: 'Workflows, newest first, 24 per page',
    description:
      'Filters: query (name or description), tag. `tags` counts the tags of the workflows matching query.',
  })
  @ApiOkResponse({ type: WorkflowPageResponse })
  @ApiBadRequestResponse({ description: 'Bad page or filter' })
  list(@Query() query: WorkflowListQuery): Promise<WorkflowPageResponse> {
    return this.workflows.list(query);
  }

  @Get(':workflow_id')
  @ApiOperation({ summary: 'One workflow with its steps and the fields they need' })
  @ApiOkResponse({ type: WorkflowResponse })
  @ApiNotFoundResponse({ description: 'No such workflow' })
  async get(@IdParam('workflow_id') id: number): Promise<WorkflowResponse> {
    return { workflow: await this.workflows.get(id) };
  }

  @Post()
  @Authenticated({ permission: 'workflow.manage' })
  @ApiOperation({ summary: 'Create a workflow (staff)' })
  @ApiCreatedResponse({ type: WorkflowResponse })
  @ApiBadRequestResponse({
    description: 'Per-field errors in `errors` (name, description, tags, template_ids); unknown templates',
  })
  async create(@CurrentUser() me: Principal, @Body() body: CreateWorkflowBody): Promise<WorkflowResponse> {
    return { workflow: await this.workflows.create(me, body) };
  }

  @Put()
  @Authenticated({ permission: 'workflow.manage' })
  @ApiOperation({ summary: 'Change a workflow (staff); left-out fields keep their value' })
  @ApiOkResponse({ type: WorkflowResponse })
  @ApiBadRequestResponse({ description: 'Validation failures, as on create' })
  @ApiNotFoundResponse({ description: 'No such workflow' })
  async update(@Body() body: UpdateWorkflowBody): Promise<WorkflowResponse> {
    return { workflow: await this.workflows.update(body) };
  }

  @Delete(':workflow_id')
  @Authenticated({ permission: 'workflow.manage' })
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a workflow (staff); users’ runs of it stay, with workflow null' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: 'No such workflow' })
  remove(@IdParam('workflow_id') id: number): Promise<void> {
    return this.workflows.remove(id);
  }
}
