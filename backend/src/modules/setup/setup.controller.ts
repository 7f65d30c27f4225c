import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import {
  SetupChecklistResponse,
  SetupItemParam,
  SetupTestBody,
  SetupTestResponse,
  StarterContentDto,
} from './dto/setup.dto';
import { SetupService } from './setup.service';
import { StarterContentService } from './starter-content.service';

@ApiTags('Setup')
@Controller('setup')
export class SetupController {
  constructor(
    private readonly setup: SetupService,
    private readonly starter: StarterContentService,
  ) {}

  @Get('checklist')
  @Authenticated({ permission: 'appconfig.edit' })
  @ApiOperation({
    summary: 'The first-run checklist: each item with its state from the live settings and where it is set',
  })
  @ApiOkResponse({ type: SetupChecklistResponse })
  checklist(@CurrentUser() me: Principal): Promise<SetupChecklistResponse> {
    return this.setup.checklist(me);
  }

  @Post('test/:item')
  @HttpCode(200)
  @Authenticated({ permission: 'appconfig.edit' })
  @ApiOperation({
    summary:
      'Tests one connection (ai, search, email, storage, stripe, paypal); a failure is an answer, not an error',
    description:
      "ai lists the models and streams a one-line answer as `setup_test_output` events (with the body's test_id) " +
      'to the caller; no words are charged. email sends a sample welcome message to the caller. storage writes, ' +
      'reads and deletes a small file. stripe and paypal check the keys and the webhook settings. The answer never ' +
      "holds a key, an address or a provider's own text.",
  })
  @ApiOkResponse({ type: SetupTestResponse })
  test(
    @Param() params: SetupItemParam,
    @Body() body: SetupTestBody,
    @CurrentUser() me: Principal,
  ): Promise<SetupTestResponse> {
    return this.setup.test(params.item, me, body.test_id);
  }

  @Delete('starter-content')
  @Authenticated({ permission: 'appconfig.edit' })
  @ApiOperation({
    summary: 'Removes every starter template and workflow (edited ones too); they are never loaded again',
  })
  @ApiOkResponse({ type: StarterContentDto })
  removeStarter(): Promise<StarterContentDto> {
    return this.starter.remove();
  }
}
