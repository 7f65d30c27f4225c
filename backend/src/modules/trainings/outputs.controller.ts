import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import {
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
  CreateOutputBody,
  GenerateOutputBody,
  OutputListQuery,
  OutputMessageBody,
  OutputPageResponse,
  OutputResponse,
  RateOutputBody,
  UpdateOutputBody,
} from './dto/output.dto';
import { OutputsService } from './outputs.service';

const NOT_YOURS =
  "Missing, or not the caller's (outputs are their user's, in the scope they were written in)";
const NO_WORDS = 'No words left: the screen goes to /sorry';

@ApiTags('outputs')
@Controller('outputs')
@Authenticated()
export class OutputsController {
  constructor(private readonly outputs: OutputsService) {}

  @Get('avatar/:avatar_id')
  @ApiOperation({ summary: "The caller's outputs of an avatar in the scope, newest first, 20 per page" })
  @ApiOkResponse({ type: OutputPageResponse })
  @ApiNotFoundResponse({ description: 'An avatar the caller cannot see' })
  byAvatar(
    @CurrentUser() me: Principal,
    @IdParam('avatar_id') id: number,
    @Query() query: OutputListQuery,
  ): Promise<OutputPageResponse> {
    return this.outputs.listByAvatar(me, id, query);
  }

  @Get('training/:training_id')
  @ApiOperation({ summary: "The caller's outputs of a training in the scope, newest first, 20 per page" })
  @ApiOkResponse({ type: OutputPageResponse })
  @ApiNotFoundResponse({ description: 'A training the caller cannot see' })
  byTraining(
    @CurrentUser() me: Principal,
    @IdParam('training_id') id: number,
    @Query() query: OutputListQuery,
  ): Promise<OutputPageResponse> {
    return this.outputs.listByTraining(me, id, query);
  }

  @Post()
  @ApiOperation({ summary: 'Keep a text as an output of an avatar or a training' })
  @ApiCreatedResponse({ type: OutputResponse })
  @ApiNotFoundResponse({ description: 'An avatar or training the caller cannot see' })
  async create(@CurrentUser() me: Principal, @Body() body: CreateOutputBody): Promise<OutputResponse> {
    return { output: await this.outputs.create(me, body) };
  }

  @Post('generate')
  @ApiOperation({
    summary: 'The avatar (with the training’s style guide when training_id is given) writes what is asked',
    description: 'Answers at once with the output, generating; its text arrives as `output` events.',
  })
  @ApiCreatedResponse({ type: OutputResponse })
  @ApiNotFoundResponse({ description: 'An avatar or training the caller cannot see' })
  @ApiPreconditionFailedResponse({ description: NO_WORDS })
  async generate(@CurrentUser() me: Principal, @Body() body: GenerateOutputBody): Promise<OutputResponse> {
    return { output: await this.outputs.generate(me, body) };
  }

  @Post('message')
  @ApiOperation({
    summary: 'A new output from an earlier one and the changes asked for (streamed as `output`)',
  })
  @ApiCreatedResponse({ type: OutputResponse })
  @ApiNotFoundResponse({ description: NOT_YOURS })
  @ApiConflictResponse({ description: 'The earlier output is still being written' })
  @ApiPreconditionFailedResponse({ description: NO_WORDS })
  async message(@CurrentUser() me: Principal, @Body() body: OutputMessageBody): Promise<OutputResponse> {
    return { output: await this.outputs.message(me, body) };
  }

  @Post('rate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Thumbs up or down with a note (a training learns from them when refined)' })
  @ApiOkResponse({ type: OutputResponse })
  @ApiNotFoundResponse({ description: NOT_YOURS })
  async rate(@CurrentUser() me: Principal, @Body() body: RateOutputBody): Promise<OutputResponse> {
    return { output: await this.outputs.rate(me, body) };
  }

  @Put()
  @ApiOperation({ summary: "Edit an output's text" })
  @ApiOkResponse({ type: OutputResponse })
  @ApiNotFoundResponse({ description: NOT_YOURS })
  async update(@CurrentUser() me: Principal, @Body() body: UpdateOutputBody): Promise<OutputResponse> {
    return { output: await this.outputs.update(me, body) };
  }

  @Delete(':output_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an output (one being written stops)' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: NOT_YOURS })
  remove(@CurrentUser() me: Principal, @IdParam('output_id') id: number): Promise<void> {
    return this.outputs.remove(me, id);
  }
}
