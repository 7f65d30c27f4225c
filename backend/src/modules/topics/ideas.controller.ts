import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
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
  GenerateHashtagsBody,
  GenerateIdeasResponse,
  GenerateTopicsBody,
  IdeaListQuery,
  IdeaPageResponse,
} from './dto/idea.dto';
import { IdeasService } from './ideas.service';

const NOT_YOURS = 'Missing, another user’s, or from another scope';

@ApiTags('topics')
@Controller('topics')
@Authenticated()
export class TopicsController {
  constructor(private readonly ideas: IdeasService) {}

  @Post('generate')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Generate topic ideas for a subject and audience',
    description:
      'Runs on the generation engine: words reserved (412 without access), charged once complete, nothing when ' +
      'it fails or is stopped. The text streams as `topics_output` events; the last one (done: true) ' +
      'carries the whole text and the idea_id of the history entry saved with the charge. Body: {subject, audience?, count? (1-30, default 10), language? (en, es)}.',
  })
  @ApiAcceptedResponse({ type: GenerateIdeasResponse })
  @ApiBadRequestResponse({ description: "'The value can't be empty', count out of 1-30, unknown value" })
  @ApiPreconditionFailedResponse({ description: 'No words available' })
  generate(@CurrentUser() me: Principal, @Body() body: GenerateTopicsBody): Promise<GenerateIdeasResponse> {
    return this.ideas.topics(me, body);
  }

  @Get()
  @ApiOperation({ summary: "The caller's topics history in the current scope, newest first (20 per page)" })
  @ApiOkResponse({ type: IdeaPageResponse })
  list(@CurrentUser() me: Principal, @Query() query: IdeaListQuery): Promise<IdeaPageResponse> {
    return this.ideas.list(me, 'topics', query);
  }

  @Delete('generations/:generation_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Stop one of the caller’s topics generations (nothing is charged or saved)' })
  @ApiNoContentResponse()
  @ApiBadRequestResponse({ description: 'generation_id is not a UUID' })
  cancel(
    @CurrentUser() me: Principal,
    @Param('generation_id', new ParseUUIDPipe({ version: '4' })) generationId: string,
  ): void {
    this.ideas.cancel(me, generationId);
  }

  @Delete(':idea_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete one entry of the caller’s topics history' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: NOT_YOURS })
  remove(@CurrentUser() me: Principal, @IdParam('idea_id') id: number): Promise<void> {
    return this.ideas.remove(me, 'topics', id);
  }
}

@ApiTags('hashtags')
@Controller('hashtags')
@Authenticated()
export class HashtagsController {
  constructor(private readonly ideas: IdeasService) {}

  @Post('generate')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Generate hashtags for a post on a platform',
    description:
      'Runs on the generation engine: words reserved (412 without access), charged once complete, nothing when ' +
      'it fails or is stopped. The text streams as `hashtags_output` events; the last one (done: true) ' +
      'carries the whole text and the idea_id of the history entry saved with the charge. Body: {text, platform? (instagram, tiktok, x, linkedin, facebook, youtube), count? (1-30, default 10)}.',
  })
  @ApiAcceptedResponse({ type: GenerateIdeasResponse })
  @ApiBadRequestResponse({ description: "'The value can't be empty', count out of 1-30, unknown value" })
  @ApiPreconditionFailedResponse({ description: 'No words available' })
  generate(@CurrentUser() me: Principal, @Body() body: GenerateHashtagsBody): Promise<GenerateIdeasResponse> {
    return this.ideas.hashtags(me, body);
  }

  @Get()
  @ApiOperation({ summary: "The caller's hashtags history in the current scope, newest first (20 per page)" })
  @ApiOkResponse({ type: IdeaPageResponse })
  list(@CurrentUser() me: Principal, @Query() query: IdeaListQuery): Promise<IdeaPageResponse> {
    return this.ideas.list(me, 'hashtags', query);
  }

  @Delete('generations/:generation_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Stop one of the caller’s hashtags generations (nothing is charged or saved)' })
  @ApiNoContentResponse()
  @ApiBadRequestResponse({ description: 'generation_id is not a UUID' })
  cancel(
    @CurrentUser() me: Principal,
    @Param('generation_id', new ParseUUIDPipe({ version: '4' })) generationId: string,
  ): void {
    this.ideas.cancel(me, generationId);
  }

  @Delete(':idea_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete one entry of the caller’s hashtags history' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: NOT_YOURS })
  remove(@CurrentUser() me: Principal, @IdParam('idea_id') id: number): Promise<void> {
    return this.ideas.remove(me, 'hashtags', id);
  }
}
