import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
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
import { badInput } from '../../common/errors/domain-error';
import {
  ASSISTANT_ID_PATTERN,
  SuperFetchGenerateBody,
  SuperFetchGenerateResponse,
  SuperFetchHistoryResponse,
  SuperFetchMessagesBody,
  SuperFetchResetResponse,
} from './dto/super-fetch.dto';
import { SuperFetchService } from './super-fetch.service';

const STREAMED =
  'Each output is one generation on the engine: words reserved (412 without access), charged once complete, ' +
  'nothing when it fails or is stopped. The text streams as `super_fetch_outputs` events (request_id, ' +
  'generation_id, index); the last of each output (done: true) carries the whole text and the message_id of ' +
  'the history entry saved with the charge. An attached file_id (docx, pdf, pptx, txt) is read as user content.';

/** An assistant_id from the path, checked like the bodies' (a clear 400, never a query with junk). */
function assistantParam(value: string): string {
  if (!ASSISTANT_ID_PATTERN.test(value))
    throw badInput('assistant_id must be the assistant_id of a Super Fetch avatar.');
  return value;
}

@ApiTags('super_fetch')
@Controller('super_fetch')
@Authenticated()
export class SuperFetchController {
  constructor(private readonly superFetch: SuperFetchService) {}

  @Get('messages/:assistant_id')
  @ApiOperation({
    summary:
      "The caller's Super Fetch history with one assistant in the current scope (latest 100, oldest first)",
  })
  @ApiOkResponse({ type: SuperFetchHistoryResponse })
  @ApiBadRequestResponse({ description: 'assistant_id malformed' })
  history(
    @CurrentUser() me: Principal,
    @Param('assistant_id') assistantId: string,
  ): Promise<SuperFetchHistoryResponse> {
    return this.superFetch.history(me, assistantParam(assistantId));
  }

  @Delete('messages/:assistant_id')
  @ApiOperation({
    summary:
      'Reset: forget the history with the assistant (what it learns from) and stop its running outputs',
  })
  @ApiOkResponse({ type: SuperFetchResetResponse, description: "{ message: 'Super Fetcch reset.' }" })
  @ApiBadRequestResponse({ description: 'assistant_id malformed' })
  reset(
    @CurrentUser() me: Principal,
    @Param('assistant_id') assistantId: string,
  ): Promise<SuperFetchResetResponse> {
    return this.superFetch.reset(me, assistantParam(assistantId));
  }

  @Post()
  @HttpCode(202)
  @ApiOperation({ summary: 'Generate one output per composed prompt in `messages`', description: STREAMED })
  @ApiAcceptedResponse({ type: SuperFetchGenerateResponse })
  @ApiBadRequestResponse({
    description: 'Empty or too many messages, malformed assistant_id, file not readable',
  })
  @ApiNotFoundResponse({
    description: 'Not one of the caller’s Super Fetch assistants in the scope, or file',
  })
  @ApiPreconditionFailedResponse({ description: 'No words available' })
  send(
    @CurrentUser() me: Principal,
    @Body() body: SuperFetchMessagesBody,
  ): Promise<SuperFetchGenerateResponse> {
    return this.superFetch.send(me, body);
  }

  @Post('v2')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Build the prompt from the nine inputs and the base prompt, and generate `outputs` outputs',
    description:
      `${STREAMED} Required inputs (Task, Topic, Target Audience, Persona, Tone, Formula) must not be empty ` +
      'unless listed in `editable` (kept as [Label]); feedback is appended as requested changes.',
  })
  @ApiAcceptedResponse({ type: SuperFetchGenerateResponse })
  @ApiBadRequestResponse({ description: "'Task can't be empty.', outputs out of 1-3, empty feedback text" })
  @ApiNotFoundResponse({
    description: 'Not one of the caller’s Super Fetch assistants in the scope, or file',
  })
  @ApiPreconditionFailedResponse({ description: 'No words available' })
  generate(
    @CurrentUser() me: Principal,
    @Body() body: SuperFetchGenerateBody,
  ): Promise<SuperFetchGenerateResponse> {
    return this.superFetch.generate(me, body);
  }

  @Delete('generations/:generation_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Stop one of the caller’s Super Fetch outputs (nothing is charged or saved)' })
  @ApiNoContentResponse()
  @ApiBadRequestResponse({ description: 'generation_id is not a UUID' })
  cancel(
    @CurrentUser() me: Principal,
    @Param('generation_id', new ParseUUIDPipe({ version: '4' })) generationId: string,
  ): void {
    this.superFetch.cancel(me, generationId);
  }
}
