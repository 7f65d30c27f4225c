import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPreconditionFailedResponse,
  ApiProduces,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Authenticated, CurrentUser, CurrentVisitor } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import type { WidgetVisitor } from '../../common/auth/visitor-token';
import { IdParam } from '../../common/http/id-param';
import {
  CreateWidgetBody,
  StartVisitorSessionBody,
  UpdateWidgetBody,
  VisitorHistoryResponse,
  VisitorMessageBody,
  VisitorSessionResponse,
  WidgetDto,
  WidgetListQuery,
  WidgetPageResponse,
} from './dto/widget.dto';
import { WidgetsService, type VisitorRequest, type VisitorStream } from './widgets.service';

const NOT_YOURS = 'Missing, another user’s, or from another scope';

@ApiTags('widgets')
@Controller('widgets')
@Authenticated()
export class WidgetsController {
  constructor(private readonly widgets: WidgetsService) {}

  @Get()
  @ApiOperation({ summary: 'The caller’s chat widgets in the current scope, newest first, with their usage' })
  @ApiOkResponse({ type: WidgetPageResponse })
  list(@CurrentUser() me: Principal, @Query() query: WidgetListQuery): Promise<WidgetPageResponse> {
    return this.widgets.list(me, query);
  }

  @Post()
  @ApiOperation({
    summary: 'Generate a chat widget for one of the caller’s avatars',
    description:
      'Answers the widget with its public key, which the embed snippet carries. Visitors are answered only on ' +
      'the `allowed_origins`. Super Fetch avatars are refused.',
  })
  @ApiCreatedResponse({ type: WidgetDto })
  @ApiBadRequestResponse({
    description: "'Please select an Avatar', 'Please type in a name for your Widget', a bad origin or limit",
  })
  create(@CurrentUser() me: Principal, @Body() body: CreateWidgetBody): Promise<WidgetDto> {
    return this.widgets.create(me, body);
  }

  @Get(':widget_id')
  @ApiOperation({ summary: 'One of the caller’s widgets with its usage' })
  @ApiOkResponse({ type: WidgetDto })
  @ApiNotFoundResponse({ description: NOT_YOURS })
  get(@CurrentUser() me: Principal, @IdParam('widget_id') widgetId: number): Promise<WidgetDto> {
    return this.widgets.get(me, widgetId);
  }

  @Put(':widget_id')
  @ApiOperation({
    summary: 'Change a widget: avatar, name, colour, image, allowed origins, limits, or disable it',
    description: 'Disabling stops its answers under way; its visitors read that the chat is not available.',
  })
  @ApiOkResponse({ type: WidgetDto })
  @ApiNotFoundResponse({ description: NOT_YOURS })
  update(
    @CurrentUser() me: Principal,
    @IdParam('widget_id') widgetId: number,
    @Body() body: UpdateWidgetBody,
  ): Promise<WidgetDto> {
    return this.widgets.update(me, widgetId, body);
  }

  @Delete(':widget_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a widget with its visitors’ conversations (snippets using it stop)' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: NOT_YOURS })
  async remove(@CurrentUser() me: Principal, @IdParam('widget_id') widgetId: number): Promise<void> {
    await this.widgets.remove(me, widgetId);
  }
}

const visitorRequest = (req: Request): VisitorRequest => ({
  origin: typeof req.headers.origin === 'string' ? req.headers.origin : undefined,
  address: req.ip ?? 'unknown',
});

/**
 * The routes a chat widget on another site calls. CORS answers only the widget's allowed origins, without
 * cookies; the visitor token these routes take is refused by every other route.
 */
@ApiTags('widget visitors')
@Controller('widget/:key')
export class WidgetVisitorsController {
  constructor(private readonly widgets: WidgetsService) {}

  @Post('sessions')
  @Authenticated({ public: true })
  @ApiOperation({
    summary: 'A visitor opens the widget: answers a short-lived visitor token',
    description:
      'The request’s `Origin` must be one of the widget’s allowed origins (403 widget_origin_refused). A ' +
      'disabled widget answers 403 widget_disabled, an owner without words 412 widget_unavailable, both with ' +
      'the sentence the widget shows. `resume_token` (an earlier token, even expired) continues that conversation.',
  })
  @ApiCreatedResponse({ type: VisitorSessionResponse })
  @ApiForbiddenResponse({ description: 'Origin not allowed, or the widget is disabled' })
  @ApiNotFoundResponse({ description: 'No widget has that key' })
  @ApiPreconditionFailedResponse({ description: 'The owner has no words' })
  @ApiTooManyRequestsResponse({ description: 'Too many sessions from this address' })
  start(
    @Param('key') key: string,
    @Body() body: StartVisitorSessionBody,
    @Req() req: Request,
  ): Promise<VisitorSessionResponse> {
    return this.widgets.startSession(key, visitorRequest(req), body.resume_token);
  }

  @Get('messages')
  @Authenticated({ widgetVisitor: true })
  @ApiOperation({ summary: 'The visitor’s conversation, its latest 50 messages, oldest first' })
  @ApiOkResponse({ type: VisitorHistoryResponse })
  history(
    @Param('key') key: string,
    @CurrentVisitor() visitor: WidgetVisitor,
    @Req() req: Request,
  ): Promise<VisitorHistoryResponse> {
    return this.widgets.history(key, visitor, visitorRequest(req));
  }

  @Post('messages')
  @Authenticated({ widgetVisitor: true })
  @ApiOperation({
    summary: 'The visitor asks; the answer streams back as Server-Sent Events',
    description:
      'Events: `delta` {content, offset} as the answer is written, then `done` {message_id, content, ' +
      'finish_reason} or `error` {code, message}. Refusals before the stream starts are ordinary error answers: ' +
      '429 rate_limited (visitor or address), widget_busy (the widget’s messages per minute or concurrent ' +
      'streams), widget_quota_exceeded (its words per day); 412 widget_unavailable (the owner has no words); ' +
      '403 widget_disabled or widget_origin_refused.',
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'The event stream' })
  @ApiTooManyRequestsResponse({ description: 'A limit was reached' })
  async send(
    @Param('key') key: string,
    @CurrentVisitor() visitor: WidgetVisitor,
    @Body() body: VisitorMessageBody,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.widgets.send(key, visitor, visitorRequest(req), body.text, eventStream(req, res));
  }
}

/** Server-Sent Events on the response; a comment line every 15 s keeps proxies from closing a slow answer. */
function eventStream(req: Request, res: Response): VisitorStream {
  let heartbeat: NodeJS.Timeout | undefined;
  return {
    open() {
      res.status(200);
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      res.setHeader('Cache-Control', 'no-cache, no-transform');
      res.setHeader('X-Accel-Buffering', 'no');
      res.flushHeaders();
      heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
      heartbeat.unref();
    },
    send(event, data) {
      if (!res.writableEnded) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      clearInterval(heartbeat);
      if (!res.writableEnded) res.end();
    },
    onClose(listener) {
      res.on('close', () => {
        clearInterval(heartbeat);
        listener();
      });
    },
  };
}
