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
  CreateTutorialBody,
  TutorialListQuery,
  TutorialPageResponse,
  TutorialResponse,
  UpdateTutorialBody,
} from './dto/tutorial.dto';
import { TutorialsService } from './tutorials.service';

const BAD =
  "'The value can't be empty' (name, video), a video that is not a YouTube link or id nor an uploaded video, " +
  'a thumbnail that is not an uploaded image, order outside 0-10000, unknown language';

@ApiTags('tutorials')
@Controller('tutorials')
@Authenticated()
export class TutorialsController {
  constructor(private readonly tutorials: TutorialsService) {}

  @Get()
  @ApiOperation({
    summary: 'Tutorials in order (then oldest first), 100 per page',
    description: 'language keeps one language; query searches the name.',
  })
  @ApiOkResponse({ type: TutorialPageResponse })
  list(@Query() query: TutorialListQuery): Promise<TutorialPageResponse> {
    return this.tutorials.list(query);
  }

  @Get(':tutorial_id')
  @ApiOperation({ summary: 'One tutorial' })
  @ApiOkResponse({ type: TutorialResponse })
  @ApiNotFoundResponse({ description: 'No such tutorial' })
  async get(@IdParam('tutorial_id') id: number): Promise<TutorialResponse> {
    return { tutorial: await this.tutorials.get(id) };
  }

  @Post(':tutorial_id/plays')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Count one play of a tutorial by the caller (the player calls it when the video starts)',
  })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: 'No such tutorial' })
  play(@CurrentUser() me: Principal, @IdParam('tutorial_id') id: number): Promise<void> {
    return this.tutorials.play(me, id);
  }

  @Post()
  @Authenticated({ staff: 'manager' })
  @ApiOperation({ summary: 'Create a tutorial (staff)' })
  @ApiCreatedResponse({ type: TutorialResponse })
  @ApiBadRequestResponse({ description: BAD })
  async create(@Body() body: CreateTutorialBody): Promise<TutorialResponse> {
    return { tutorial: await this.tutorials.create(body) };
  }

  @Put()
  @Authenticated({ staff: 'manager' })
  @ApiOperation({ summary: 'Change a tutorial (staff)' })
  @ApiOkResponse({ type: TutorialResponse })
  @ApiBadRequestResponse({ description: BAD })
  @ApiNotFoundResponse({ description: 'No such tutorial' })
  async update(@Body() body: UpdateTutorialBody): Promise<TutorialResponse> {
    return { tutorial: await this.tutorials.update(body) };
  }

  @Delete(':tutorial_id')
  @Authenticated({ staff: 'manager' })
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a tutorial and its play counts (staff)' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: 'No such tutorial' })
  remove(@IdParam('tutorial_id') id: number): Promise<void> {
    return this.tutorials.remove(id);
  }
}
