import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../common/auth/principal';
import { badInput, conflict, notFound, preconditionFailed } from '../../common/errors/domain-error';
import { toPage } from '../../common/http/pagination';
import { AiError, aiCancelled, isAiCancelled, socketErrorMessage, toAiError } from '../ai/ai.errors';
import { AiMessage, AiResult, AiService } from '../ai/ai.service';
import { countWords } from '../ai/words';
import { ConversationsService, scopeWhere } from '../conversations/conversations.service';
import { RealtimeService } from '../realtime/realtime.service';
import { StreamBatcher } from '../realtime/stream-batcher';
import { WordsService } from '../words/words.service';
import type {
  ConversationMessagesQuery,
  MessageDto,
  MessagePageResponse,
  OwnMessagesQuery,
  SendMessageBody,
  SendMessageResponse,
  UpdateMessageBody,
} from './dto/message.dto';

const PAGE_SIZE = 20;
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
/** A failure of ours (not the provider's) on the socket: the client only needs to know the answer is gone. */
const GENERATION_FAILED_MESSAGE = 'The answer could not be generated. Please try again.';

const COLUMNS = `m.message_id, m.conversation_id, m.user_id, m.role, m.content, m.finish_reason, m.favorite,
  m.prompt, m.user_message_id, m.message_type_id, m.model, m.words, m."createdAt", m."updatedAt"`;

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

  constructor(
    private readonly db: DataSource,
    private readonly conversations: ConversationsService,
    private readonly words: WordsService,
    private readonly ai: AiService,
    private readonly realtime: RealtimeService,
  ) {}

  async send(me: Principal, body: SendMessageBody): Promise<SendMessageResponse> {
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
    checkContent(body.content);
    // Not built: a request that asks for it must not silently get an answer without the web.
    if (body.searchOnInternet) throw badInput('Web search is not available.', 'search_unavailable');
    const conversation = await this.conversations.get(me, body.conversation_id);
    // Staff use the product without buying words (they test and support it).
    if (!me.staffRole && !(await this.words.hasAccess(me.user_id)))
      throw preconditionFailed(NO_ACCESS_MESSAGE, 'no_access');
    // A model chosen for this message wins over the conversation's; AiService resolves null/'Unset'.
    const model = body.model?.trim() || conversation.model || null;

    const { user_message, message } = await this.db.transaction(async (m) => {
      const [userMessage] = (await m.query(
        `INSERT INTO messages (conversation_id, user_id, role, content, message_type_id, model)
         VALUES ($1, $2, 'user', $3, $4, $5) RETURNING *`,
        [conversation.conversation_id, me.user_id, body.content, body.message_type_id ?? null, model],
      )) as MessageDto[];
      const [pending] = (await m.query(
        `INSERT INTO messages (conversation_id, user_id, role, content, user_message_id, message_type_id, model)
         VALUES ($1, $2, 'assistant', NULL, $3, $4, $5) RETURNING *`,
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
    };
    return { user_message, message, job };
  }

  /** Page 1 holds the newest messages; each page reads oldest first, as the conversation screen shows them. */
  async listConversation(
    me: Principal,
    conversationId: number,
    query: ConversationMessagesQuery,
  ): Promise<MessagePageResponse> {
    await this.conversations.get(me, conversationId);
    const { page, limit, skip } = toPage({ page: query.page }, PAGE_SIZE);
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
    const [messages, [{ total }]] = await Promise.all([
      this.db.query(
        `SELECT ${COLUMNS} FROM ${from} ORDER BY m."createdAt" DESC, m.message_id DESC
          LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, limit, skip],
      ) as Promise<MessageDto[]>,
      this.db.query(`SELECT count(*)::int AS total FROM ${from}`, params) as Promise<{ total: number }[]>,
    ]);
    return { messages, total, page, limit };
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

  async remove(me: Principal, messageId: number): Promise<void> {
    await this.own(me, messageId);
    await this.db.query(`DELETE FROM messages WHERE message_id = $1`, [messageId]);
    // Deleting a pending answer stops its generation; other instances notice through their watch.
    this.running.get(messageId)?.controller.abort();
  }

  /** Stops every generation of this instance (they then clean up and charge nothing) while the database is up. */
  async beforeApplicationShutdown(): Promise<void> {
    const all = [...this.running.values()];
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
      ? new StreamBatcher((content) =>
          this.realtime.emitToUser(job.user_id, 'message_stream', {
            conversation_id: job.conversation_id,
            message_id: job.message_id,
            content,
          }),
        )
      : null;
    try {
      const messages = await this.history(job);
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
      const saved = await this.save(job, result);
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
      if (live) this.report(job, err);
      throw err;
    }
  }

  /** The newest messages with content, within the budget, oldest first; the new message is always among them. */
  private async history(job: Job): Promise<AiMessage[]> {
    const rows = (await this.db.query(
      `SELECT role, content FROM messages
        WHERE conversation_id = $1 AND message_id < $2 AND content IS NOT NULL
        ORDER BY "createdAt" DESC, message_id DESC LIMIT $3`,
      [job.conversation_id, job.message_id, HISTORY_MAX_MESSAGES],
    )) as { role: 'user' | 'assistant'; content: string }[];
    const picked: AiMessage[] = [];
    let budget = HISTORY_TOKEN_BUDGET;
    for (const row of rows) {
      const cost = estimateTokens(row.content);
      if (picked.length && cost > budget) break;
      budget -= cost;
      picked.push({ role: row.role, content: row.content });
    }
    return picked.reverse();
  }

  /**
   * Writes the answer and charges its words in one transaction, so a saved answer is always paid and a charge
   * always has its answer. Null when the pending answer no longer exists (deleted meanwhile).
   */
  private async save(job: Job, result: AiResult): Promise<MessageDto | null> {
    const words = countWords(result.content);
    return this.db.transaction(async (m: EntityManager) => {
      const [rows] = (await m.query(
        `UPDATE messages m SET content = $2, finish_reason = $3, words = $4, model = $5,
                "updatedAt" = clock_timestamp()
          WHERE m.message_id = $1 AND m.content IS NULL RETURNING ${COLUMNS}`,
        [job.message_id, result.content, result.finish_reason, words, result.model],
      )) as [MessageDto[], number];
      if (!rows[0]) return null;
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
  private report(job: Job, err: unknown): void {
    if (isAiCancelled(err)) return;
    if (!(err instanceof AiError)) {
      this.logger.error(
        `Message ${job.message_id} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      );
      this.realtime.emitToUser(job.user_id, 'error', { statusCode: 500, message: GENERATION_FAILED_MESSAGE });
      return;
    }
    const mapped = toAiError(err);
    if (mapped.code === 'openai_error')
      this.realtime.emitToUser(job.user_id, 'openai-error', { message: socketErrorMessage(err) });
    else
      this.realtime.emitToUser(job.user_id, 'error', { statusCode: mapped.status, message: mapped.message });
  }

  /** False once the answer (or its conversation) is deleted or the session that asked for it has ended. */
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
