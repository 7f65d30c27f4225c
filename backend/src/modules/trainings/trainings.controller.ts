import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPreconditionFailedResponse,
  ApiTags,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { IdParam } from '../../common/http/id-param';
import { PREMIUM_FEATURE } from '../avatars/avatar-rules';
import {
  CreateTrainingBody,
  TrainingIdBody,
  TrainingListQuery,
  TrainingPageResponse,
  TrainingResponse,
  UpdateTrainingBody,
} from './dto/training.dto';
import { TRAINING_BUSY } from './training-rules';
import { TrainingsService } from './trainings.service';

const NOT_VISIBLE = 'Missing, or a training the caller cannot see (another user’s, another organization’s)';

@ApiTags('trainings')
@Controller('trainings')
@Authenticated()
export class TrainingsController {
  constructor(private readonly trainings: TrainingsService) {}

  @Get()
  @ApiOperation({
    summary: "The caller's trainings in the scope (and the organization's), newest first, 24 per page",
  })
  @ApiOkResponse({ type: TrainingPageResponse })
  list(@CurrentUser() me: Principal, @Query() query: TrainingListQuery): Promise<TrainingPageResponse> {
    return this.trainings.list(me, query);
  }

  @Get('public/all')
  @ApiOperation({ summary: 'Community trainings (public), newest first, 24 per page' })
  @ApiOkResponse({ type: TrainingPageResponse })
  listPublic(@CurrentUser() me: Principal, @Query() query: TrainingListQuery): Promise<TrainingPageResponse> {
    return this.trainings.listPublic(me, query);
  }

  @Get(':training_id')
  @ApiOperation({ summary: 'One training with its state, progress and style guide' })
  @ApiOkResponse({ type: TrainingResponse })
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  async get(@CurrentUser() me: Principal, @IdParam('training_id') id: number): Promise<TrainingResponse> {
    return { training: await this.trainings.get(me, id) };
  }

  @Post()
  @ApiOperation({
    summary: 'Create a training of an avatar from a dataset uploaded first (POST /api/files gives file_id)',
  })
  @ApiCreatedResponse({ type: TrainingResponse })
  @ApiBadRequestResponse({ description: "'You must add a name to your training.'" })
  @ApiNotFoundResponse({ description: 'The avatar or the dataset file is not the caller’s to use' })
  @ApiPreconditionFailedResponse({ description: PREMIUM_FEATURE })
  @ApiUnsupportedMediaTypeResponse({ description: 'The dataset is not a kind a training reads' })
  async create(@CurrentUser() me: Principal, @Body() body: CreateTrainingBody): Promise<TrainingResponse> {
    return { training: await this.trainings.create(me, body) };
  }

  @Put()
  @ApiOperation({ summary: 'Rename a training, change its dataset, or (staff admins) make it public' })
  @ApiOkResponse({ type: TrainingResponse })
  @ApiForbiddenResponse({ description: 'Visible but not the caller’s, or public changed by a non-admin' })
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  @ApiConflictResponse({ description: TRAINING_BUSY })
  async update(@CurrentUser() me: Principal, @Body() body: UpdateTrainingBody): Promise<TrainingResponse> {
    return { training: await this.trainings.update(me, body) };
  }

  @Post('execute')
  @HttpCode(200)
  @ApiOperation({
    summary: "Run the training: the dataset becomes the avatar's knowledge and a learned style guide",
    description:
      'A background job of up to 15 minutes (words charged for each model step); progress arrives as ' +
      '`training_progress`. The answer is the training, queued.',
  })
  @ApiOkResponse({ type: TrainingResponse })
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  @ApiConflictResponse({ description: TRAINING_BUSY })
  @ApiPreconditionFailedResponse({ description: PREMIUM_FEATURE })
  async execute(@CurrentUser() me: Principal, @Body() body: TrainingIdBody): Promise<TrainingResponse> {
    return { training: await this.trainings.start(me, body.training_id, 'execute') };
  }

  @Post('sync')
  @HttpCode(200)
  @ApiOperation({
    summary: "Read the dataset again and index it as the avatar's knowledge (a background job)",
  })
  @ApiOkResponse({ type: TrainingResponse })
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  @ApiConflictResponse({ description: TRAINING_BUSY })
  @ApiPreconditionFailedResponse({ description: PREMIUM_FEATURE })
  async sync(@CurrentUser() me: Principal, @Body() body: TrainingIdBody): Promise<TrainingResponse> {
    return { training: await this.trainings.start(me, body.training_id, 'sync') };
  }

  @Post('refine')
  @HttpCode(200)
  @ApiOperation({ summary: "Improve the style guide from the training's rated outputs (answers when done)" })
  @ApiOkResponse({ type: TrainingResponse })
  @ApiBadRequestResponse({ description: 'Not executed yet, or no rated output' })
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  @ApiConflictResponse({ description: TRAINING_BUSY })
  @ApiPreconditionFailedResponse({ description: PREMIUM_FEATURE })
  async refine(@CurrentUser() me: Principal, @Body() body: TrainingIdBody): Promise<TrainingResponse> {
    return { training: await this.trainings.refine(me, body.training_id) };
  }

  @Delete(':training_id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a training and its outputs (its run stops; the knowledge file stays with the avatar)',
  })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  remove(@CurrentUser() me: Principal, @IdParam('training_id') id: number): Promise<void> {
    return this.trainings.remove(me, id);
  }
}
