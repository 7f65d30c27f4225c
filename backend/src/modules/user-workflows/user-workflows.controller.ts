import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPreconditionFailedResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { IdParam } from '../../common/http/id-param';
import {
  StartUserWorkflowBody,
  UpdateUserWorkflowBody,
  UserWorkflowListQuery,
  UserWorkflowPageResponse,
  UserWorkflowResponse,
} from './dto/user-workflow.dto';
import { UserWorkflowsService } from './user-workflows.service';

const NOT_FOUND = 'Missing, another user’s, or from another scope';
const NO_ACCESS =
  "'Creating more content with the product requires an active subscription.' (code no_access)";

@ApiTags('user_workflows')
@Controller('user_workflows')
@Authenticated()
export class UserWorkflowsController {
  constructor(private readonly userWorkflows: UserWorkflowsService) {}

  @Get()
  @ApiOperation({
    summary:
      "The caller's user workflows in the current scope (Personal, or ?organization_id=), newest first, 24 per page",
    description: 'query searches the names.',
  })
  @ApiOkResponse({ type: UserWorkflowPageResponse })
  @ApiBadRequestResponse({ description: 'Bad page' })
  list(
    @CurrentUser() me: Principal,
    @Query() query: UserWorkflowListQuery,
  ): Promise<UserWorkflowPageResponse> {
    return this.userWorkflows.list(me, query);
  }

  @Get(':user_workflow_id')
  @ApiOperation({ summary: 'One of the caller’s user workflows, with each step’s status' })
  @ApiOkResponse({ type: UserWorkflowResponse })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async get(
    @CurrentUser() me: Principal,
    @IdParam('user_workflow_id') id: number,
  ): Promise<UserWorkflowResponse> {
    return { user_workflow: await this.userWorkflows.get(me, id) };
  }

  @Post()
  @ApiOperation({
    summary: 'Start a workflow: one conversation per step, generated in order in the background',
    description:
      'Every step starts `pending`; each then goes `generating` and `done` or `failed` (with `error`), announced ' +
      'on the socket event `message` as {user_workflow_id, user_workflow_template_id, conversation_id, status}. ' +
      'A failed step does not stop the later ones.',
  })
  @ApiCreatedResponse({ type: UserWorkflowResponse })
  @ApiBadRequestResponse({
    description:
      "'Values must look like name=value, separated by commas.' (invalid_values); missing_values with `missing`",
  })
  @ApiNotFoundResponse({ description: 'No such workflow' })
  @ApiPreconditionFailedResponse({ description: NO_ACCESS })
  async start(
    @CurrentUser() me: Principal,
    @Body() body: StartUserWorkflowBody,
  ): Promise<UserWorkflowResponse> {
    return { user_workflow: await this.userWorkflows.start(me, body) };
  }

  @Put()
  @ApiOperation({
    summary: 'Rename, describe or change the values of a user workflow (nothing is regenerated)',
  })
  @ApiOkResponse({ type: UserWorkflowResponse })
  @ApiBadRequestResponse({ description: 'As on start' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async update(
    @CurrentUser() me: Principal,
    @Body() body: UpdateUserWorkflowBody,
  ): Promise<UserWorkflowResponse> {
    return { user_workflow: await this.userWorkflows.update(me, body) };
  }

  @Delete(':user_workflow_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a user workflow and its conversations (stops steps still generating)' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: NOT_FOUND })
  remove(@CurrentUser() me: Principal, @IdParam('user_workflow_id') id: number): Promise<void> {
    return this.userWorkflows.remove(me, id);
  }

  @Post(':user_workflow_id/regenerate/:conversation_id')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Generate one step again with the current values; its conversation’s messages are cleared first',
  })
  @ApiAcceptedResponse({ type: UserWorkflowResponse })
  @ApiNotFoundResponse({ description: `${NOT_FOUND}, or the conversation is not one of its steps` })
  @ApiPreconditionFailedResponse({ description: NO_ACCESS })
  @ApiConflictResponse({ description: 'The step is waiting or generating (code step_generating)' })
  async regenerate(
    @CurrentUser() me: Principal,
    @IdParam('user_workflow_id') id: number,
    @IdParam('conversation_id') conversationId: number,
  ): Promise<UserWorkflowResponse> {
    return { user_workflow: await this.userWorkflows.regenerate(me, id, conversationId) };
  }
}
