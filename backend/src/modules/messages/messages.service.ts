import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../common/auth/principal';
import {
  badInput,
  conflict,
  DomainError,
  notFound,
  preconditionFailed,
} from '../../common/errors/domain-error';
import { selectPage, toPage } from '../../common/http/pagination';
import { AiError, aiCancelled, isAiCancelled, socketErrorMessage, toAiError } from '../ai/ai.errors';
import { AiMessage, AiResult, AiService } from '../ai/ai.service';
import { countWords } from '../ai/words';
import { ConversationsService, scopeWhere } from '../conversations/conversations.service';
import { RealtimeService } from '../realtime/realtime.service';
import { StreamBatcher } from '../realtime/stream-batcher';
import { SearchProvider, SearchResult } from '../search/search.provider';
import { SEARCH_UNAVAILABLE_MESSAGE, SearchService } from '../search/search.service';
import { missingValues, renderTemplate } from '../templates/template-rules';
import { TemplatesService } from '../templates/templates.service';
import { WordsService } from '../words/words.service';
import type {
  ConversationMessagesQuery,
  EnhanceBody,
  EnhanceResponse,
  MessageDto,
  MessagePageResponse,
  OwnMessagesQuery,
  SendMessageBody,
  SendMessageResponse,
  UpdateMessageBody,
} from './dto/message.dto';

const PAGE_SIZE = 20;
/** Spec 001 §9: a thread shows its 10 latest messages, 10 more per scroll. */
const THREAD_PAGE_SIZE = 10;
/** Spec 001 §5: enhance needs a text longer than this. */
export const ENHANCE_MIN_CHARS = 12;
/** Spec 001 §5: a message may be at most this many estimated tokens (length / 4, rounded). */
export const MAX_MESSAGE_TOKENS = 7500;
/**
 * How much of the conversation goes to the model, in estimated tokens. Above the largest message, so the new
 * message always fits, and well inside the context of the models offered.
 */
const HISTORY_TOKEN_BUDGET = 12_000;
const HISTORY_MAX_MESSAGES = 50;
/**
 * How often a running generation checks that it is still wanted (its message and conversation exist, the
 * session that asked is open). A check on the database rather than an in-process signal, because the delete or
 * the sign-out may reach another instance.
 */
const WATCH_MS = 300;

export const NO_ACCESS_MESSAGE = 'Creating more content with the product requires an active subscription.';
const EMPTY_MESSAGE = "The message can't be empty.";
const TOO_LONG_MESSAGE = 'The message is too long.';
const ENHANCE_TOO_SHORT_MESSAGE = 'Enhance is available only when the text is longer than 12 characters.';
/** The fixed instruction of prompt enhancement; the user's prompt follows as the user message. */
export const ENHANCE_SYSTEM_PROMPT = [
  'You improve prompts written for an AI assistant.',
  'Rewrite the prompt the user sends into a clearer, more specific prompt: keep its intent, language and any',
  'details it gives, make the task, audience, tone and expected format explicit where that helps.',
  'Do not answer or carry out the prompt. Answer with the improved prompt only, without any introduction,',
  'explanation, quotes or labels.',
].join(' ');
/** A failure of ours (not the provider's) on the socket: the client only needs to know the answer is gone. */
const GENERATION_FAILED_MESSAGE = 'The answer could not be generated. Please try again.';

/** What the API shows of a message; `prompt` (a template's rendered text) is for the model only. */
const COLUMNS = `m.message_id, m.conversation_id, m.user_id, m.role, m.content, m.finish_reason, m.favorite,
  m.user_message_id, m.message_type_id, m.model, m.words, m.sources, m.status, m.interrupted_reason,
  m.partial_content, m."createdAt", m."updatedAt"`;

const messageNotFound = () => notFound('Message', 'message_not_found');

export const estimateTokens = (text: string): number => Math.round(text.length / 4);

/** Spec 001 §5's send limits, also applied when a message is edited. */
function checkContent(content: string): void {
  if (content.trim().length < 1) throw badInput(EMPTY_MESSAGE, 'empty_message');
  if (estimateTokens(content) > MAX_MESSAGE_TOKENS) throw badInput(TOO_LONG_MESSAGE, 'message_too_long');
}

/** What a generation needs once the request that started it is gone. */
interface Job {
  user_id: number;
  session_id: string | null;
  conversation_id: number;
  organization_id: number | null;
  message_id: number;
  model: string | null;
  /** The user message this answers. */
  user_message_id: number;
  /** The oldest message the model may see: 0 for the whole conversation, the user message for none before it. */
  history_from: number;
  /** Delete the user message once the answer is saved (template apply's deleteUserMsg). */
  delete_user_message: boolean;
  /** Search the web for `query` first, when asked for. */
  search: { provider: SearchProvider; query: string } | null;
}

/** What an enhancement needs once the request that started it is gone. */
interface EnhanceJob {
  enhance_id: string;
  user_id: number;
  session_id: string | null;
  organization_id: number | null;
  model: string | null;
  content: string;
}

interface Running {
  controller: AbortController;
  done: Promise<unknown>;
}

/**
 * Messages and their AI answers. Sending saves the user's message and a pending answer (content null), then
 * generates: streamed over the socket in batches, written once at the end together with the word debit, in one
 * transaction. A failed or cancelled generation deletes the pending answer and charges nothing, so a message
 * row with content is always a delivered, paid answer.
 */
@Injectable()
export class MessagesService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Messages');
  /** In-flight generations of this instance, by the answer's message_id. */
  private readonly running = new Map<number, Running>();
  /** In-flight enhancements of this instance, by enhance_id. */
  private readonly enhancing = new Map<string, Running>();

  constructor(
    private readonly db: DataSource,
    private readonly conversations: ConversationsService,
    private readonly words: WordsService,
    private readonly ai: AiService,
    private readonly realtime: RealtimeService,
    private readonly templates: TemplatesService,
    private readonly searchService: SearchService,
  ) {}

  async send(me: Principal, body: SendMessageBody): Promise<SendMessageResponse | EnhanceResponse> {
    if (body.enhance === true)
      return this.enhance(me, { content: body.content ?? '', model: body.model, stream: body.stream });
    const { user_message, message, job } = await this.start(me, body);
    if (body.stream === false) return { user_message, message: await this.generate(job, false) };
    // The failure is already reported on the socket (and logged) inside generate.
    this.generate(job, true).catch(() => undefined);
    return { user_message, message };
  }

  /**
   * A streamed send that resolves once the answer is saved, or rejects when it fails (after reporting it on the
   * socket like any streamed answer). For features that chain generations, such as the steps of a workflow.
   */
  async sendAndWait(me: Principal, body: SendMessageBody): Promise<SendMessageResponse> {
    const { user_message, job } = await this.start(me, body);
    return { user_message, message: await this.generate(job, true) };
  }

  /** Checks the request, saves the user's message and the pending answer; the generation is the caller's to run. */
  private async start(
    me: Principal,
    body: SendMessageBody,
  ): Promise<{ user_message: MessageDto; message: MessageDto; job: Job }> {
    if (body.avatar_id != null) throw badInput('Avatars are not available yet.', 'avatar_unavailable');
    if (body.conversation_id === undefined)
      throw badInput(`conversation_id must be a whole number.`, 'bad_input');
    // Without a template the text is checked before anything is read, as it always was.
    if (body.template_id == null) checkContent(body.content ?? '');
    const provider = body.searchOnInternet ? await this.searchService.provider() : null;
    if (body.searchOnInternet && !provider) throw badInput(SEARCH_UNAVAILABLE_MESSAGE, 'search_unavailable');
    const conversation = await this.conversations.get(me, body.conversation_id);
    // What the user message shows, and what the model gets instead when that differs (a rendered template).
    const { content, prompt } =
      body.template_id == null
        ? { content: body.content ?? '', prompt: null }
        : await this.applyTemplate(me, body.template_id, body.values);
    // Staff use the product without buying words (they test and support it).
    if (!me.staffRole && !(await this.words.hasAccess(me.user_id)))
      throw preconditionFailed(NO_ACCESS_MESSAGE, 'no_access');
    // A model chosen for this message wins over the conversation's; AiService resolves null/'Unset'.
    const model = body.model?.trim() || conversation.model || null;

    const { user_message, message } = await this.db.transaction(async (m) => {
      const [userMessage] = (await m.query(
        `INSERT INTO messages AS m (conversation_id, user_id, role, content, prompt, message_type_id, model)
         VALUES ($1, $2, 'user', $3, $4, $5, $6) RETURNING ${COLUMNS}`,
        [conversation.conversation_id, me.user_id, content, prompt, body.message_type_id ?? null, model],
      )) as MessageDto[];
      const [pending] = (await m.query(
        `INSERT INTO messages AS m (conversation_id, user_id, role, content, user_message_id, message_type_id,
                model, status)
         VALUES ($1, $2, 'assistant', NULL, $3, $4, $5, 'generating') RETURNING ${COLUMNS}`,
        [
          conversation.conversation_id,
          me.user_id,
          userMessage.message_id,
          body.message_type_id ?? null,
          model,
        ],
      )) as MessageDto[];
      // "Last Used" on the conversation list sorts by updatedAt.
      await m.query(`UPDATE conversations SET "updatedAt" = now() WHERE conversation_id = $1`, [
        conversation.conversation_id,
      ]);
      return { user_message: userMessage, message: pending };
    });

    const job: Job = {
      user_id: me.user_id,
      session_id: me.session_id,
      conversation_id: conversation.conversation_id,
      organization_id: conversation.organization_id,
      message_id: message.message_id,
      model,
      user_message_id: user_message.message_id,
      // Spec 001 §7: template apply sends saveOnConversation false; either flag off means "this prompt alone".
      history_from:
        body.saveOnConversation === false || body.learnFromPrevResponse === false
          ? user_message.message_id
          : 0,
      delete_user_message: body.deleteUserMsg === true,
      search: provider ? { provider, query: prompt ?? content } : null,
    };
    return { user_message, message, job };
  }

  /**
   * Spec 001 §5: a template the caller can see (else 404, as GET /api/templates/{id}), a non-empty value for
   * every field; the prompt is the template rendered with them, the visible text the template's name.
   */
  private async applyTemplate(
    me: Principal,
    templateId: number,
    values: Record<string, unknown> | undefined,
  ): Promise<{ content: string; prompt: string }> {
    const given = values ?? {};
    if (Object.values(given).some((v) => typeof v !== 'string'))
      throw badInput('Each value must be text.', 'invalid_values');
    const template = await this.templates.get(me, templateId);
    // The prompt may be hidden from the caller (show_prompt off), but applying it is what the template is for.
    const [row] = (await this.db.query(`SELECT content FROM templates WHERE template_id = $1`, [
      templateId,
    ])) as { content: string }[];
    if (!row) throw notFound('Template', 'template_not_found');
    const missing = missingValues(
      template.fields.map((f) => f.name),
      given,
    );
    if (missing.length) {
      const labels = missing.map((name) => template.fields.find((f) => f.name === name)?.label || name);
      throw badInput(`Please fill in every field: ${labels.join(', ')}.`, 'missing_values', {
        missing,
        labels,
      });
    }
    const prompt = renderTemplate(row.content, given as Record<string, string>);
    checkContent(prompt);
    return { content: template.name, prompt };
  }

  // ---------------------------------------------------------------- enhance

  /**
   * Spec 001 §5: rewrites the prompt into a better one. Nothing is stored as a message; the words are charged
   * once the improved prompt is complete (reference `enhance:{enhance_id}`), nothing when it fails.
   */
  async enhance(me: Principal, body: EnhanceBody): Promise<EnhanceResponse> {
    checkContent(body.content);
    if (body.content.trim().length <= ENHANCE_MIN_CHARS)
      throw badInput(ENHANCE_TOO_SHORT_MESSAGE, 'enhance_too_short');
    if (!me.staffRole && !(await this.words.hasAccess(me.user_id)))
      throw preconditionFailed(NO_ACCESS_MESSAGE, 'no_access');
    const job: EnhanceJob = {
      enhance_id: randomUUID(),
      user_id: me.user_id,
      session_id: me.session_id,
      organization_id: me.org?.organization_id ?? null,
      model: body.model?.trim() || null,
      content: body.content,
    };
    if (body.stream === false)
      return { enhance_id: job.enhance_id, content: await this.runEnhanceJob(job, false) };
    // The failure is already reported on the socket (and logged) inside.
    this.runEnhanceJob(job, true).catch(() => undefined);
    return { enhance_id: job.enhance_id, content: null };
  }

  private runEnhanceJob(job: EnhanceJob, live: boolean): Promise<string> {
    const controller = new AbortController();
    const done = this.runEnhance(job, live, controller.signal);
    this.enhancing.set(job.enhance_id, { controller, done: done.catch(() => undefined) });
    const watch = setInterval(() => {
      this.sessionOpen(job.session_id).then(
        (open) => {
          if (!open) controller.abort();
        },
        () => undefined,
      );
    }, WATCH_MS);
    return done.finally(() => {
      clearInterval(watch);
      this.enhancing.delete(job.enhance_id);
    });
  }

  private async runEnhance(job: EnhanceJob, live: boolean, signal: AbortSignal): Promise<string> {
    const batcher = live
      ? new StreamBatcher((content) =>
          this.realtime.emitToUser(job.user_id, 'message_stream_enhance', {
            enhance_id: job.enhance_id,
            content,
          }),
        )
      : null;
    try {
      const result = await this.ai.complete(
        {
          messages: [
            { role: 'system', content: ENHANCE_SYSTEM_PROMPT },
            { role: 'user', content: job.content },
          ],
          model: job.model,
          organization_id: job.organization_id,
          signal,
        },
        (delta) => batcher?.push(delta),
      );
      batcher?.end();
      const content = result.content.trim();
      await this.words.debit(job.user_id, countWords(content), {
        source: 'enhance',
        reference: `enhance:${job.enhance_id}`,
        organization_id: job.organization_id,
      });
      if (live)
        this.realtime.emitToUser(job.user_id, 'message_stream_enhance_end', {
          enhance_id: job.enhance_id,
          content,
        });
      return content;
    } catch (err) {
      batcher?.end();
      if (live) this.report(job.user_id, `Enhance ${job.enhance_id}`, err);
      throw err;
    }
  }

  /** Page 1 holds the newest messages; each page reads oldest first, as the conversation screen shows them. */
  async listConversation(
    me: Principal,
    conversationId: number,
    query: ConversationMessagesQuery,
  ): Promise<MessagePageResponse> {
    return this.conversationPage(me, conversationId, query.page, PAGE_SIZE);
  }

  /**
   * Spec 001 §9's thread: the 10 latest messages, 10 more per page. Threads belong to avatars, which do not
   * exist yet, so the id is a conversation's.
   */
  async thread(
    me: Principal,
    conversationId: number,
    page: number | undefined,
  ): Promise<MessagePageResponse> {
    return this.conversationPage(me, conversationId, page, THREAD_PAGE_SIZE);
  }

  private async conversationPage(
    me: Principal,
    conversationId: number,
    pageNumber: number | undefined,
    size: number,
  ): Promise<MessagePageResponse> {
    await this.conversations.get(me, conversationId);
    const { page, limit, skip } = toPage({ page: pageNumber }, size);
    const [messages, [{ total }]] = await Promise.all([
      this.db.query(
        `SELECT * FROM (
           SELECT ${COLUMNS} FROM messages m WHERE m.conversation_id = $1
            ORDER BY m."createdAt" DESC, m.message_id DESC LIMIT $2 OFFSET $3
         ) page ORDER BY "createdAt", message_id`,
        [conversationId, limit, skip],
      ) as Promise<MessageDto[]>,
      this.db.query(`SELECT count(*)::int AS total FROM messages WHERE conversation_id = $1`, [
        conversationId,
      ]) as Promise<{ total: number }[]>,
    ]);
    return { messages, total, page, limit };
  }

  /** The caller's messages in the current scope, newest first, optionally only favorites or one type. */
  async listOwn(me: Principal, query: OwnMessagesQuery): Promise<MessagePageResponse> {
    const { page, limit, skip } = toPage(query, PAGE_SIZE);
    const scope = scopeWhere(me, 1);
    const where = [scope.sql, `m.user_id = $1`];
    const params = [...scope.params];
    if (query.favorite) {
      params.push(query.favorite === 'true');
      where.push(`m.favorite = $${params.length}`);
    }
    if (query.message_type_id) {
      params.push(query.message_type_id);
      where.push(`m.message_type_id = $${params.length}`);
    }
    const from = `messages m JOIN conversations c ON c.conversation_id = m.conversation_id
      WHERE ${where.join(' AND ')}`;
    const { rows, total } = await selectPage<MessageDto>(
      this.db,
      { columns: COLUMNS, from, orderBy: `m."createdAt" DESC, m.message_id DESC`, params },
      { page, limit, skip },
    );
    return { messages: rows, total, page, limit };
  }

  async update(me: Principal, body: UpdateMessageBody): Promise<MessageDto> {
    const current = await this.own(me, body.message_id);
    const sets: string[] = [];
    const params: unknown[] = [body.message_id];
    if (body.content !== undefined) {
      checkContent(body.content);
      // The generation writes only into a still-pending answer; an edit now would be overwritten or lost.
      if (current.content === null)
        throw conflict('The message is still being generated.', 'message_pending');
      params.push(body.content);
      sets.push(`content = $${params.length}`);
    }
    if (body.favorite !== undefined) {
      params.push(body.favorite);
      sets.push(`favorite = $${params.length}`);
    }
    if (!sets.length) return current;
    const [rows] = (await this.db.query(
      `UPDATE messages m SET ${sets.join(', ')}, "updatedAt" = clock_timestamp()
        WHERE m.message_id = $1 RETURNING ${COLUMNS}`,
      params,
    )) as [MessageDto[], number];
    if (!rows[0]) throw messageNotFound();
    return rows[0];
  }

  /** Regenerates the caller's own interrupted answer; 409 message_not_interrupted for any other answer. */
  async retry(me: Principal, messageId: number): Promise<MessageDto> {
    // No answer can be interrupted yet (the leases that interrupt them come with the engine), so none is retried.
    await this.own(me, messageId);
    throw conflict('Only an interrupted answer can be retried.', 'message_not_interrupted');
  }

  async remove(me: Principal, messageId: number): Promise<void> {
    await this.own(me, messageId);
    await this.db.query(`DELETE FROM messages WHERE message_id = $1`, [messageId]);
    // Deleting a pending answer stops its generation; other instances notice through their watch.
    this.running.get(messageId)?.controller.abort();
  }

  /** Stops every generation of this instance (they then clean up and charge nothing) while the database is up. */
  async beforeApplicationShutdown(): Promise<void> {
    const all = [...this.running.values(), ...this.enhancing.values()];
    for (const run of all) run.controller.abort();
    await Promise.allSettled(all.map((run) => run.done));
  }

  // ---------------------------------------------------------------- generation

  /**
   * Runs one generation to its end. `live` streams it on the socket and reports failures there; otherwise the
   * caller gets the saved answer or the error. Either way a failure deletes the pending answer, unpaid.
   */
  private generate(job: Job, live: boolean): Promise<MessageDto> {
    const controller = new AbortController();
    const done = this.runGeneration(job, live, controller.signal);
    const run: Running = { controller, done: done.catch(() => undefined) };
    this.running.set(job.message_id, run);
    const watch = setInterval(() => {
      this.stillWanted(job).then(
        (wanted) => {
          if (!wanted) controller.abort();
        },
        () => undefined,
      );
    }, WATCH_MS);
    return done.finally(() => {
      clearInterval(watch);
      this.running.delete(job.message_id);
    });
  }

  private async runGeneration(job: Job, live: boolean, signal: AbortSignal): Promise<MessageDto> {
    const batcher = live
      ? new StreamBatcher((content, offset) =>
          this.realtime.emitToUser(job.user_id, 'message_stream', {
            conversation_id: job.conversation_id,
            message_id: job.message_id,
            offset,
            content,
          }),
        )
      : null;
    try {
      const messages = await this.history(job);
      let sources: SearchResult[] | null = null;
      if (job.search) {
        sources = await this.searchService
          .search(job.search.provider, job.search.query, signal)
          .catch((err: unknown) => {
            throw signal.aborted ? aiCancelled() : err;
          });
        // Right before the prompt it is about, after whatever context comes first.
        messages.splice(Math.max(0, messages.length - 1), 0, searchMessage(sources));
      }
      const generation = this.ai.stream({
        messages,
        model: job.model,
        organization_id: job.organization_id,
        signal,
      });
      let result: AiResult;
      for (;;) {
        const next = await generation.next();
        if (next.done) {
          result = next.value;
          break;
        }
        batcher?.push(next.value.delta);
      }
      batcher?.end();
      const saved = await this.save(job, result, sources);
      // The answer or its conversation was deleted while it was generated: nothing saved, nothing charged.
      if (!saved) throw aiCancelled();
      if (live)
        this.realtime.emitToUser(job.user_id, 'message_stream_end', {
          conversation_id: job.conversation_id,
          message: { ...saved },
        });
      return saved;
    } catch (err) {
      batcher?.end();
      await this.discard(job.message_id);
      if (live) this.report(job.user_id, `Message ${job.message_id}`, err);
      throw err;
    }
  }

  /** The newest messages with content, within the budget, oldest first; the new message is always among them. */
  private async history(job: Job): Promise<AiMessage[]> {
    const rows = (await this.db.query(
      `SELECT role, COALESCE(prompt, content) AS content FROM messages
        WHERE conversation_id = $1 AND message_id < $2 AND message_id >= $4 AND content IS NOT NULL
        ORDER BY "createdAt" DESC, message_id DESC LIMIT $3`,
      [job.conversation_id, job.message_id, HISTORY_MAX_MESSAGES, job.history_from],
    )) as { role: 'user' | 'assistant'; content: string }[];
    const picked: AiMessage[] = [];
    let budget = HISTORY_TOKEN_BUDGET;
    for (const row of rows) {
      const cost = estimateTokens(row.content);
      if (picked.length && cost > budget) break;
      budget -= cost;
      picked.push({ role: row.role, content: row.content });
    }
    // The conversation's attached file (text or image) comes first, with its own budget.
    const attachment = await this.conversations.attachmentContext(job.conversation_id, job.model);
    return attachment ? [attachment, ...picked.reverse()] : picked.reverse();
  }

  /**
   * Writes the answer and charges its words in one transaction, so a saved answer is always paid and a charge
   * always has its answer. Null when the pending answer no longer exists (deleted meanwhile).
   */
  private async save(job: Job, result: AiResult, found: SearchResult[] | null): Promise<MessageDto | null> {
    const words = countWords(result.content);
    const sources = found ? JSON.stringify(found.map(({ title, url }) => ({ title, url }))) : null;
    return this.db.transaction(async (m: EntityManager) => {
      const [rows] = (await m.query(
        `UPDATE messages m SET content = $2, finish_reason = $3, words = $4, model = $5, sources = $6::jsonb,
                status = 'complete', partial_content = NULL, lease_until = NULL,
                user_message_id = CASE WHEN $7 THEN NULL ELSE user_message_id END,
                "updatedAt" = clock_timestamp()
          WHERE m.message_id = $1 AND m.content IS NULL RETURNING ${COLUMNS}`,
        [
          job.message_id,
          result.content,
          result.finish_reason,
          words,
          result.model,
          sources,
          job.delete_user_message,
        ],
      )) as [MessageDto[], number];
      if (!rows[0]) return null;
      if (job.delete_user_message)
        await m.query(`DELETE FROM messages WHERE message_id = $1`, [job.user_message_id]);
      await this.words.debit(
        job.user_id,
        words,
        { source: 'message', reference: `message:${job.message_id}`, organization_id: job.organization_id },
        m,
      );
      return rows[0];
    });
  }

  /** Removes a pending answer that will never be written; a failure here must not hide the original error. */
  private async discard(messageId: number): Promise<void> {
    await this.db
      .query(`DELETE FROM messages WHERE message_id = $1 AND content IS NULL`, [messageId])
      .catch((err: Error) =>
        this.logger.warn(`Could not delete pending message ${messageId}: ${err.message}`),
      );
  }

  /** Spec 002 §8: the provider's refusals as 'openai-error'; a cancellation was asked for and needs no report. */
  private report(user_id: number, what: string, err: unknown): void {
    if (isAiCancelled(err)) return;
    // Our own rules, such as a failed web search: their status and sentence as they are.
    if (err instanceof DomainError && !(err instanceof AiError)) {
      this.realtime.emitToUser(user_id, 'error', { statusCode: err.status, message: err.message });
      return;
    }
    if (!(err instanceof AiError)) {
      this.logger.error(`${what} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      this.realtime.emitToUser(user_id, 'error', { statusCode: 500, message: GENERATION_FAILED_MESSAGE });
      return;
    }
    const mapped = toAiError(err);
    if (mapped.code === 'openai_error')
      this.realtime.emitToUser(user_id, 'openai-error', { message: socketErrorMessage(err) });
    else this.realtime.emitToUser(user_id, 'error', { statusCode: mapped.status, message: mapped.message });
  }

  /** False once the answer (or its conversation) is deleted or the session that asked for it has ended. */
  private async sessionOpen(session_id: string | null): Promise<boolean> {
    if (session_id === null) return true;
    const [row] = (await this.db.query(
      `SELECT EXISTS (SELECT 1 FROM sessions WHERE session_id = $1::uuid
         AND revoked_at IS NULL AND expires_at > now()) AS open`,
      [session_id],
    )) as { open: boolean }[];
    return row.open;
  }

  private async stillWanted(job: Job): Promise<boolean> {
    const [row] = (await this.db.query(
      `SELECT EXISTS (SELECT 1 FROM messages WHERE message_id = $1) AS message,
              ($2::uuid IS NULL OR EXISTS (SELECT 1 FROM sessions WHERE session_id = $2::uuid
                 AND revoked_at IS NULL AND expires_at > now())) AS session`,
      [job.message_id, job.session_id],
    )) as { message: boolean; session: boolean }[];
    return row.message && row.session;
  }

  /** One of the caller's messages in a conversation of the current scope; anything else is 404. */
  private async own(me: Principal, messageId: number): Promise<MessageDto> {
    const scope = scopeWhere(me, 2);
    const [row] = (await this.db.query(
      `SELECT ${COLUMNS} FROM messages m JOIN conversations c ON c.conversation_id = m.conversation_id
        WHERE m.message_id = $1 AND m.user_id = c.user_id AND ${scope.sql}`,
      [messageId, ...scope.params],
    )) as MessageDto[];
    if (!row) throw messageNotFound();
    return row;
  }
}

/** The search results for the model, as a system message that asks it to cite the links it uses. */
function searchMessage(results: SearchResult[]): AiMessage {
  if (!results.length)
    return {
      role: 'system',
      content: 'A web search for this message found nothing. Say so if the answer needs current information.',
    };
  const listed = results
    .map((r, i) => `${i + 1}. ${r.title}\n   URL: ${r.url}${r.snippet ? `\n   ${r.snippet}` : ''}`)
    .join('\n');
  return {
    role: 'system',
    content:
      'Web search results for the next message (the web is current, your knowledge may not be):\n' +
      listed +
      '\nUse them where they help and cite the links you rely on as Markdown links.',
  };
}
