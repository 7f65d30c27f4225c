import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  DEFAULT_WIDGET_ACCENT,
  MAX_WIDGETS,
  WIDGET_ADDRESS_MESSAGES_PER_MINUTE,
  WIDGET_ADDRESS_SESSIONS_PER_MINUTE,
  WIDGET_HISTORY_LIMIT,
  WIDGET_LIMIT_DEFAULTS,
  WIDGET_MESSAGES,
  WIDGET_VISITOR_MESSAGES_PER_MINUTE,
  WIDGET_VISITOR_TOKEN_TTL_SECONDS,
  type WidgetStreamEvents,
} from '@avatar-studio/contracts';
import type { Principal } from '../../common/auth/principal';
import { RateLimitStore } from '../../common/auth/rate-limit.store';
import { signVisitorToken, verifyVisitorToken, type WidgetVisitor } from '../../common/auth/visitor-token';
import { scopeOf } from '../../common/database/owner-scope';
import {
  DomainError,
  badInput,
  forbidden,
  notFound,
  tooManyRequests,
} from '../../common/errors/domain-error';
import { toPage } from '../../common/http/pagination';
import { APP_ENV, type AppEnv } from '../../config/env';
import { isAiCancelled } from '../ai/ai.errors';
import { AvatarsService } from '../avatars/avatars.service';
import { CONTENT_PATH, FilesService } from '../files/files.service';
import { GenerationService, type GenerationSpec } from '../generation/generation.service';
import { WordsService } from '../words/words.service';
import type {
  CreateWidgetBody,
  UpdateWidgetBody,
  VisitorHistoryResponse,
  VisitorSessionResponse,
  WidgetDto,
  WidgetListQuery,
  WidgetPageResponse,
} from './dto/widget.dto';
import type { WidgetMessage } from './widget-message.entity';
import {
  WIDGET_ANSWER_MAX_WORDS,
  WIDGET_INSTRUCTION,
  WIDGET_KEY_PATTERN,
  WIDGET_PROMPT_HISTORY,
  newWidgetKey,
  normalizeOrigin,
  startOfUtcDay,
  storedAccent,
} from './widget-rules';
import type { Widget } from './widget.entity';
import { WidgetsRepository, type WidgetChanges } from './widgets.repository';

const PAGE_SIZE = 20;
const WINDOW_MS = 60_000;

const widgetNotFound = () => notFound('Chat widget', 'widget_not_found');
const unavailable = (code: 'widget_disabled' | 'widget_unavailable', status = 403) =>
  new DomainError(status, code, WIDGET_MESSAGES.unavailable);

/** Where a visitor's answer goes: the Server-Sent Events of their request. */
export interface VisitorStream {
  /** Starts the event stream (after every check passed, so refusals are plain JSON errors). */
  open(): void;
  send<E extends keyof WidgetStreamEvents>(event: E, data: WidgetStreamEvents[E]): void;
  end(): void;
  /** Called once if the visitor goes away before the answer ends. */
  onClose(listener: () => void): void;
}

/** Who asks, from where: the request's `Origin` header and address. */
export interface VisitorRequest {
  origin: string | undefined;
  address: string;
}

/**
 * Chat widgets: their owners make, change, disable and delete them and see their usage; visitors of the sites
 * allowed start a session, read their conversation and get answers streamed from the widget's avatar, generated
 * on the one engine and charged to the widget's owner, within the widget's, the visitor's and the address's
 * limits.
 */
@Injectable()
export class WidgetsService {
  /** Answers streaming on this instance, per widget. */
  private readonly streaming = new Map<number, number>();

  constructor(
    private readonly repo: WidgetsRepository,
    private readonly avatars: AvatarsService,
    private readonly files: FilesService,
    private readonly words: WordsService,
    private readonly engine: GenerationService,
    private readonly limits: RateLimitStore,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  // ---------------------------------------------------------------- owners

  async list(me: Principal, query: WidgetListQuery): Promise<WidgetPageResponse> {
    const page = toPage(query, PAGE_SIZE);
    const { rows, total } = await this.repo.page(scopeOf(me), page);
    return {
      widgets: await Promise.all(rows.map((w) => this.toDto(w))),
      total,
      page: page.page,
      limit: page.limit,
    };
  }

  async get(me: Principal, widgetId: number): Promise<WidgetDto> {
    return this.toDto(await this.owned(me, widgetId));
  }

  async create(me: Principal, body: CreateWidgetBody): Promise<WidgetDto> {
    if ((await this.repo.count(scopeOf(me))) >= MAX_WIDGETS)
      throw badInput(`You can keep at most ${MAX_WIDGETS} widgets. Delete one first.`, 'widget_limit');
    await this.checkAvatar(me, body.avatar_id);
    if (body.image_file_id != null) await this.checkImage(me, body.image_file_id);
    const widget = await this.repo.insert({
      user_id: me.user_id,
      organization_id: me.org?.organization_id ?? null,
      avatar_id: body.avatar_id,
      name: body.name,
      accent_color: storedAccent(body.accent_color ?? DEFAULT_WIDGET_ACCENT),
      image_file_id: body.image_file_id ?? null,
      allowed_origins: origins(body.allowed_origins ?? []),
      messages_per_minute: body.messages_per_minute ?? WIDGET_LIMIT_DEFAULTS.messages_per_minute,
      words_per_day: body.words_per_day ?? WIDGET_LIMIT_DEFAULTS.words_per_day,
      max_concurrent_streams: body.max_concurrent_streams ?? WIDGET_LIMIT_DEFAULTS.max_concurrent_streams,
      public_key: newWidgetKey(),
    });
    return this.toDto(widget);
  }

  async update(me: Principal, widgetId: number, body: UpdateWidgetBody): Promise<WidgetDto> {
    const widget = await this.owned(me, widgetId);
    const changes: WidgetChanges = {};
    if (body.avatar_id !== undefined && body.avatar_id !== widget.avatar_id) {
      await this.checkAvatar(me, body.avatar_id);
      changes.avatar_id = body.avatar_id;
    }
    if (body.name !== undefined) changes.name = body.name;
    if (body.accent_color !== undefined) changes.accent_color = storedAccent(body.accent_color);
    if (body.image_file_id !== undefined) {
      if (body.image_file_id !== null && body.image_file_id !== widget.image_file_id)
        await this.checkImage(me, body.image_file_id);
      changes.image_file_id = body.image_file_id;
    }
    if (body.allowed_origins !== undefined) changes.allowed_origins = origins(body.allowed_origins);
    if (body.messages_per_minute !== undefined) changes.messages_per_minute = body.messages_per_minute;
    if (body.words_per_day !== undefined) changes.words_per_day = body.words_per_day;
    if (body.max_concurrent_streams !== undefined)
      changes.max_concurrent_streams = body.max_concurrent_streams;
    if (body.disabled !== undefined) changes.disabled = body.disabled;
    await this.repo.update(widget.widget_id, changes);
    // Disabling stops the answers streaming now, on every instance.
    if (changes.disabled) this.engine.cancel(widgetCancelKey(widget.widget_id));
    return this.get(me, widgetId);
  }

  async remove(me: Principal, widgetId: number): Promise<void> {
    if (!(await this.repo.delete(scopeOf(me), widgetId))) throw widgetNotFound();
    this.engine.cancel(widgetCancelKey(widgetId));
  }

  private async owned(me: Principal, widgetId: number): Promise<Widget> {
    const widget = await this.repo.findOwned(scopeOf(me), widgetId);
    if (!widget) throw widgetNotFound();
    return widget;
  }

  /** An avatar the owner may see, not a Super Fetch assistant. */
  private async checkAvatar(me: Principal, avatarId: number): Promise<void> {
    const avatar = await this.avatars.visible(me, avatarId).catch(() => null);
    if (!avatar || avatar.super_fetch_assistant)
      throw badInput(WIDGET_MESSAGES.selectAvatar, 'widget_avatar_not_allowed');
  }

  /** The button image: one of the owner's public images (images are served to other sites). */
  private async checkImage(me: Principal, fileId: number): Promise<void> {
    const file = await this.files.findOwned(me.user_id, fileId);
    if (!file.public || !file.type.startsWith('image/'))
      throw badInput('The button image must be an image file.', 'unsupported_type');
  }

  private async toDto(w: Widget): Promise<WidgetDto> {
    return {
      widget_id: w.widget_id,
      user_id: w.user_id,
      organization_id: w.organization_id,
      avatar_id: w.avatar_id,
      name: w.name,
      accent_color: w.accent_color,
      image_file_id: w.image_file_id,
      image_url: await this.imageUrl(w),
      allowed_origins: w.allowed_origins,
      messages_per_minute: w.messages_per_minute,
      words_per_day: w.words_per_day,
      max_concurrent_streams: w.max_concurrent_streams,
      disabled: w.disabled,
      public_key: w.public_key,
      usage: {
        conversations: w.conversations_count,
        messages: w.messages_count,
        words: Number(w.words_count),
        words_today: await this.repo.wordsSince(w.widget_id, startOfUtcDay()),
      },
      createdAt: w.createdAt,
      updatedAt: w.updatedAt,
    };
  }

  /** The image's absolute address: the widget shows it on other sites. */
  private async imageUrl(w: Widget): Promise<string | null> {
    if (!w.image_file_id) return null;
    const file = await this.files.findById(w.image_file_id);
    return file ? new URL(CONTENT_PATH + file.storage_key, this.env.publicUrl).toString() : null;
  }

  // ---------------------------------------------------------------- visitors

  /** CORS: the origins a widget's visitor routes answer, or none for an unknown key. */
  async allowedOrigins(publicKey: string): Promise<string[]> {
    if (!WIDGET_KEY_PATTERN.test(publicKey)) return [];
    return (await this.repo.findByKey(publicKey))?.allowed_origins ?? [];
  }

  /**
   * A visitor opens the widget: the key must name a widget allowed on the page's origin, switched on, whose owner
   * has words. A token of an earlier visit (even expired) continues its conversation.
   */
  async startSession(
    publicKey: string,
    request: VisitorRequest,
    resumeToken: string | undefined,
  ): Promise<VisitorSessionResponse> {
    const widget = await this.byKey(publicKey);
    const origin = this.checkOrigin(widget, request.origin);
    if (widget.disabled) throw unavailable('widget_disabled');
    await this.hit(`widget:sessions:${request.address}`, WIDGET_ADDRESS_SESSIONS_PER_MINUTE);
    if (!(await this.words.hasAccess(widget.user_id))) throw unavailable('widget_unavailable', 412);
    const previous = resumeToken
      ? verifyVisitorToken(this.env.appSecret, resumeToken, { resume: true })
      : null;
    const visitorId =
      previous && previous.widget_id === widget.widget_id && previous.origin === origin
        ? previous.visitor_id
        : randomUUID();
    const conversation = await this.repo.conversationFor(widget.widget_id, visitorId, origin);
    const visitor: WidgetVisitor = {
      widget_id: widget.widget_id,
      visitor_id: visitorId,
      conversation_id: conversation.widget_conversation_id,
      origin,
    };
    return {
      token: signVisitorToken(this.env.appSecret, visitor),
      expires_in: WIDGET_VISITOR_TOKEN_TTL_SECONDS,
      visitor_id: visitorId,
      conversation_id: conversation.widget_conversation_id,
      widget: {
        name: widget.name,
        accent_color: widget.accent_color,
        image_url: await this.imageUrl(widget),
        avatar_name: (await this.avatars.nameOf(widget.avatar_id)) ?? widget.name,
      },
    };
  }

  async history(
    publicKey: string,
    visitor: WidgetVisitor,
    request: VisitorRequest,
  ): Promise<VisitorHistoryResponse> {
    await this.visitorsWidget(publicKey, visitor, request);
    const rows = await this.repo.latestMessages(visitor.conversation_id, WIDGET_HISTORY_LIMIT);
    return { messages: rows.map(toVisitorMessage) };
  }

  /**
   * Answers a visitor's message on `out`: every check first (refusals are plain error answers), then the
   * question is saved, the event stream opens and the avatar's answer streams in; it is saved and charged to the
   * owner once complete. The visitor leaving stops it (nothing charged).
   */
  async send(
    publicKey: string,
    visitor: WidgetVisitor,
    request: VisitorRequest,
    text: string,
    out: VisitorStream,
  ): Promise<void> {
    const widget = await this.visitorsWidget(publicKey, visitor, request);
    await this.hit(
      `widget:visitor:${visitor.visitor_id}`,
      WIDGET_VISITOR_MESSAGES_PER_MINUTE,
      WIDGET_MESSAGES.slowDown,
    );
    await this.hit(
      `widget:address:${request.address}`,
      WIDGET_ADDRESS_MESSAGES_PER_MINUTE,
      WIDGET_MESSAGES.slowDown,
    );
    await this.hit(
      `widget:widget:${widget.widget_id}`,
      widget.messages_per_minute,
      WIDGET_MESSAGES.busy,
      'widget_busy',
    );
    if ((await this.repo.wordsSince(widget.widget_id, startOfUtcDay())) >= widget.words_per_day)
      throw new DomainError(
        429,
        'widget_quota_exceeded',
        WIDGET_MESSAGES.dailyLimit,
        undefined,
        Math.ceil(secondsToMidnight()),
      );
    const release = this.takeStream(widget);
    try {
      const owner = {
        user_id: widget.user_id,
        session_id: null,
        staff: false,
        organization_id: widget.organization_id,
      };
      const reservation = await this.engine
        // The engine's per-user cap does not apply to visitors: each widget has its own (max_concurrent_streams),
        // and their answers leave the owner's own cap free.
        .admit(owner, null, { words: WIDGET_ANSWER_MAX_WORDS, maxConcurrent: null })
        .catch((err: unknown) => {
          throw visitorFacing(err);
        });
      const question = await this.repo
        .insertQuestion(widget.widget_id, visitor.conversation_id, text)
        .catch(async (err: unknown) => {
          await this.engine.release(reservation);
          throw err;
        });
      const id = `widget:${widget.widget_id}:${randomUUID()}`;
      let ended = false;
      const finish = () => {
        if (ended) return;
        ended = true;
        release();
        out.end();
      };
      const spec: GenerationSpec<WidgetMessage> = {
        id,
        owner,
        keys: [widgetCancelKey(widget.widget_id)],
        model: null,
        source: 'widget',
        prompt: {
          instruction: WIDGET_INSTRUCTION,
          history: async () =>
            (await this.repo.latestMessages(visitor.conversation_id, WIDGET_PROMPT_HISTORY + 1))
              .filter((m) => m.widget_message_id <= question.widget_message_id)
              .map((m) => ({ role: m.role, content: m.content })),
          avatar: () => this.avatars.knowledgeFor(widget.avatar_id, text, widget.organization_id),
        },
        stream: (content, offset) => out.send('delta', { content, offset }),
        persist: (m, output) =>
          this.repo.insertAnswer(m, {
            widget_id: widget.widget_id,
            widget_conversation_id: visitor.conversation_id,
            content: output.content,
            finish_reason: output.finish_reason,
            words: output.words,
          }),
        finished: (saved) => {
          out.send('done', {
            message_id: saved.widget_message_id,
            content: saved.content,
            finish_reason: saved.finish_reason ?? 'stop',
          });
          finish();
        },
        report: (err) => {
          const { code, message } = visitorFacing(err);
          out.send('error', { code, message });
          finish();
        },
      };
      out.open();
      out.onClose(() => {
        if (!ended) this.engine.cancel(id);
      });
      this.engine
        .run(spec, reservation)
        .catch(() => undefined)
        .finally(finish);
    } catch (err) {
      release();
      throw err;
    }
  }

  private async byKey(publicKey: string): Promise<Widget> {
    const widget = WIDGET_KEY_PATTERN.test(publicKey) ? await this.repo.findByKey(publicKey) : null;
    if (!widget) throw widgetNotFound();
    return widget;
  }

  /** The page's origin, when the widget is allowed there (403 otherwise, requests without one included). */
  private checkOrigin(widget: Widget, origin: string | undefined): string {
    if (!origin || !widget.allowed_origins.includes(origin))
      throw forbidden(WIDGET_MESSAGES.originRefused, 'widget_origin_refused');
    return origin;
  }

  /** The widget of a visitor's call: the token's own, on the origin it was given for, still allowed and on. */
  private async visitorsWidget(
    publicKey: string,
    visitor: WidgetVisitor,
    request: VisitorRequest,
  ): Promise<Widget> {
    const widget = await this.byKey(publicKey);
    if (widget.widget_id !== visitor.widget_id)
      throw new DomainError(
        401,
        'widget_token_invalid',
        'The chat session has ended. Please reload the page.',
      );
    const origin = this.checkOrigin(widget, request.origin);
    if (origin !== visitor.origin) throw forbidden(WIDGET_MESSAGES.originRefused, 'widget_origin_refused');
    if (widget.disabled) throw unavailable('widget_disabled');
    return widget;
  }

  private async hit(
    key: string,
    perMinute: number,
    message: string = WIDGET_MESSAGES.slowDown,
    code: 'rate_limited' | 'widget_busy' = 'rate_limited',
  ): Promise<void> {
    const { count, resetMs } = await this.limits.hit(key, WINDOW_MS);
    if (count > perMinute) throw tooManyRequests(message, resetMs / 1000, code);
  }

  /** One of the widget's concurrent streams on this instance (429 when all are taken); answers its release. */
  private takeStream(widget: Widget): () => void {
    const running = this.streaming.get(widget.widget_id) ?? 0;
    if (running >= widget.max_concurrent_streams)
      throw tooManyRequests(WIDGET_MESSAGES.busy, 5, 'widget_busy');
    this.streaming.set(widget.widget_id, running + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.streaming.get(widget.widget_id) ?? 1) - 1;
      if (left > 0) this.streaming.set(widget.widget_id, left);
      else this.streaming.delete(widget.widget_id);
    };
  }
}

/** The key that stops every answer of a widget (disabled or deleted). */
export const widgetCancelKey = (widgetId: number) => `widget:${widgetId}`;

function origins(list: string[]): string[] {
  const out = new Set<string>();
  for (const item of list) {
    const origin = normalizeOrigin(item);
    if (!origin)
      throw badInput(
        `"${item.slice(0, 100)}" is not a site address: write it like https://www.example.com.`,
        'validation_failed',
      );
    out.add(origin);
  }
  return [...out];
}

/**
 * What a visitor may read of a failure: the owner's own situation (no words, their per-user limits) is told as
 * the widget being unavailable or busy, never in the owner's terms.
 */
function visitorFacing(err: unknown): DomainError {
  // Stopped because the widget was disabled or deleted meanwhile (a visitor who left reads nothing).
  if (isAiCancelled(err)) return unavailable('widget_disabled');
  if (err instanceof DomainError) {
    if (err.status === 412) return unavailable('widget_unavailable', 412);
    if (err.code === 'too_many_generations') return tooManyRequests(WIDGET_MESSAGES.busy, 5, 'widget_busy');
    if (err.code.startsWith('widget_') || err.status === 503) return err;
  }
  return new DomainError(502, 'ai_unavailable', 'The answer could not be generated. Please try again.');
}

function secondsToMidnight(now = new Date()): number {
  return (startOfUtcDay(now).getTime() + 86_400_000 - now.getTime()) / 1000;
}

function toVisitorMessage(m: WidgetMessage) {
  return { message_id: m.widget_message_id, role: m.role, content: m.content, createdAt: m.createdAt };
}
