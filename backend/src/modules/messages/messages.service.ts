import { FeatureFlagsService } from '../app-config/feature-flags.service';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { UnitOfWork } from '../../database/unit-of-work';
import type { Principal } from '../../common/auth/principal';
import { badInput, conflict, notFound } from '../../common/errors/domain-error';
import { toPage } from '../../common/http/pagination';
import { AvatarsService } from '../avatars/avatars.service';
import { type AttachedFile, ConversationsService } from '../conversations/conversations.service';
import { cancelKeys } from '../generation/generation-bus';
import {
  GenerationOutput,
  GenerationOwner,
  GenerationService,
  GenerationSpec,
  HeadStart,
  LAPSED_REASON,
} from '../generation/generation.service';
import type { HistoryMessage } from '../generation/prompt-builder';
import { RealtimeService } from '../realtime/realtime.service';
import { SearchProvider } from '../search/search.provider';
import { SEARCH_UNAVAILABLE_MESSAGE, SearchService } from '../search/search.service';
import { TemplatesService } from '../templates/templates.service';
import { AccessPolicy } from '../organizations/access-policy';
import type { Reservation } from '../words/words.service';
import type {
  ConversationMessagesQuery,
  MessageDto,
  MessagePageResponse,
  OwnMessagesQuery,
  SendMessageBody,
  SendMessageResponse,
  UpdateMessageBody,
} from './dto/message.dto';
import type { Message } from './message.entity';
import { type CompletedAnswer, type HistoryRow, MessagesRepository } from './messages.repository';

/** The user's message and the pending answer of an exchange, as the messages repository reads them. */
type Exchange = ReturnType<ReturnType<MessagesRepository['exchangeRead']>['read']>;

export { NO_ACCESS_MESSAGE } from '../words/words.service';

const PAGE_SIZE = 20;
/** A thread shows its 10 latest messages, 10 more per scroll. */
const THREAD_PAGE_SIZE = 10;
/** A message may be at most this many estimated tokens (length / 4, rounded). */
export const MAX_MESSAGE_TOKENS = 7500;
/**
 * How much of the conversation goes to the model, in estimated tokens. Above the largest message, so the new
 * message always fits, and well inside the context of the models offered.
 */
const HISTORY_TOKEN_BUDGET = 12_000;
const HISTORY_MAX_MESSAGES = 50;

const EMPTY_MESSAGE = "The message can't be empty.";
const TOO_LONG_MESSAGE = 'The message is too long.';

const messageNotFound = () => notFound('Message', 'message_not_found');

export const estimateTokens = (text: string): number => Math.round(text.length / 4);

/** The limits on a sent message (length and estimated tokens), also applied when a message is edited. */
export function checkContent(content: string): void {
  if (content.trim().length < 1) throw badInput(EMPTY_MESSAGE, 'empty_message');
  if (estimateTokens(content) > MAX_MESSAGE_TOKENS) throw badInput(TOO_LONG_MESSAGE, 'message_too_long');
}

/** The newest messages with content, within the budget, oldest first; the newest one always among them. */
function fitHistory(rows: HistoryRow[]): HistoryMessage[] {
  const picked: HistoryMessage[] = [];
  let budget = HISTORY_TOKEN_BUDGET;
  for (const row of rows) {
    const cost = estimateTokens(row.content);
    if (picked.length && cost > budget) break;
    budget -= cost;
    picked.push({ role: row.role, content: row.content });
  }
  return picked.reverse();
}

/** What a message's prompt needs: known once its words are admitted, before its rows are saved. */
interface PromptJob {
  owner: GenerationOwner;
  conversation_id: number;
  model: string | null;
  /** The messages the model may see, newest first, the one to answer among them. */
  history: () => Promise<HistoryRow[]>;
  /** The conversation's attachment when it was read with the conversation; left out, it is read when needed. */
  attachment?: AttachedFile;
  /** Search the web for `query` first, when asked for. */
  search: { provider: SearchProvider; query: string } | null;
  /** The avatar answering (its context and the passages retrieved for `question`), if any. */
  avatar: { avatar_id: number; question: string; thread: boolean } | null;
}

/** What a message's generation needs once the request that started it is gone. */
interface Job extends PromptJob {
  message_id: number;
  /** The user message this answers. */
  user_message_id: number | null;
  /** Delete the user message once the answer is saved (template apply's deleteUserMsg). */
  delete_user_message: boolean;
  /**
   * False (saveOnConversation false): the exchange stays out of the conversation; once the answer is saved and
   * charged, both its rows are deleted in that transaction, and the answer is still streamed and returned.
   */
  keep: boolean;
}

/** What a message needs of its conversation (an avatar's thread or one named by id) and its attached file. */
interface ConversationWithAttachment {
  conversation: {
    conversation_id: number;
    organization_id: number | null;
    model: string | null;
    avatar_id: number | null;
    thread_avatar_id: number | null;
  };
  attachment: AttachedFile | undefined;
}

/** A model chosen for this message wins over the conversation's; AiService resolves null/'Unset'. */
function chosenModel(body: SendMessageBody, conversation: { model: string | null }): string | null {
  return body.model?.trim() || conversation.model || null;
}

/** What saving a finished answer writes. */
function completedAnswer(job: Job, output: GenerationOutput): CompletedAnswer {
  return {
    content: output.content,
    finish_reason: output.finish_reason,
    words: output.words,
    model: output.model,
    sources: output.sources ? output.sources.map(({ title, url }) => ({ title, url })) : null,
    citations: output.citations,
    unlinkUserMessage: job.delete_user_message || !job.keep,
  };
}

/** Whom a generation is for; whether they generate without buying words is the access policy's answer. */
export function ownerOf(
  me: Principal,
  organization_id: number | null,
  access: AccessPolicy,
): GenerationOwner {
  return {
    user_id: me.user_id,
    session_id: me.session_id,
    staff: access.permits(me, 'words.unmetered'),
    organization_id,
  };
}

/**
 * Message storage, and the message side of generations: sending saves the user's message and a pending answer
 * (status generating, content null) and hands the generation to the engine with the callbacks that store it.
 * The answer is written once at the end together with the word charge, in one transaction; while it streams its
 * lease and text so far are renewed; an answer that cannot finish ends as interrupted with its text, unpaid.
 */
@Injectable()
export class MessagesService implements OnModuleInit {
  private readonly logger = new Logger('Messages');

  constructor(
    private readonly repository: MessagesRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly conversations: ConversationsService,
    private readonly realtime: RealtimeService,
    private readonly templates: TemplatesService,
    private readonly searchService: SearchService,
    private readonly engine: GenerationService,
    private readonly flags: FeatureFlagsService,
    private readonly access: AccessPolicy,
    private readonly avatars: AvatarsService,
  ) {}

  onModuleInit(): void {
    this.engine.addSweeper({ sweep: (held) => this.sweepLapsed(held) });
    this.realtime.onStreamResume((user_id, { message_id, offset }) =>
      this.resume(user_id, message_id, offset),
    );
  }

  async send(me: Principal, body: SendMessageBody): Promise<SendMessageResponse> {
    const live = body.stream !== false;
    const { user_message, message, spec, reservation, head } = await this.start(me, body, live);
    if (!live) return { user_message, message: await this.engine.run(spec, reservation, head) };
    // The failure is already reported on the socket (and logged) by the engine.
    this.engine.run(spec, reservation, head).catch(() => undefined);
    return { user_message, message };
  }

  /**
   * A streamed send that resolves once the answer is saved, or rejects when it fails (after reporting it on the
   * socket like any streamed answer). For features that chain generations, such as the steps of a workflow.
   * `visible` is what the user message shows when the prompt is hidden (a template's name).
   */
  async sendAndWait(
    me: Principal,
    body: SendMessageBody,
    hidden?: { visible: string; prompt: string },
  ): Promise<SendMessageResponse> {
    const { user_message, spec, reservation, head } = await this.start(me, body, true, hidden);
    return { user_message, message: await this.engine.run(spec, reservation, head) };
  }

  /**
   * A streamed message to an avatar's thread whose model text (`prompt`) differs from what the user message shows
   * (a document's text added); the avatar's passages are retrieved for `question`.
   */
  async sendWithDocument(
    me: Principal,
    avatarId: number,
    hidden: { visible: string; prompt: string; question: string },
  ): Promise<SendMessageResponse> {
    const { user_message, message, spec, reservation, head } = await this.start(
      me,
      { avatar_id: avatarId },
      true,
      hidden,
    );
    // The failure is already reported on the socket (and logged) by the engine.
    this.engine.run(spec, reservation, head).catch(() => undefined);
    return { user_message, message };
  }

  /**
   * Checks the request, reserves the words, saves the user's message and the pending answer; the generation is
   * the caller's to run (`live`: streamed on the socket). Its provider call is begun once the words are admitted,
   * while the exchange is saved and the admission commits (`head`), when nothing is left to look up for it.
   */
  private async start(
    me: Principal,
    body: SendMessageBody,
    live: boolean,
    hidden?: { visible: string; prompt: string; question?: string },
  ): Promise<{
    user_message: MessageDto;
    message: MessageDto;
    spec: GenerationSpec<MessageDto>;
    reservation: Reservation;
    head?: HeadStart;
  }> {
    // Avatars switched off: sending to one is refused as their routes are (404 feature_disabled).
    if (body.avatar_id != null) await this.flags.assertOn('avatars_enabled');
    // An avatar the caller cannot see is 404; without a conversation, the message goes to the thread with it.
    const chosenAvatar = body.avatar_id != null ? await this.avatars.visible(me, body.avatar_id) : null;
    if (body.conversation_id === undefined && !chosenAvatar)
      throw badInput(`conversation_id must be a whole number.`, 'bad_input');
    // Without a template the text is checked before anything is read, as it always was.
    if (hidden) checkContent(hidden.prompt);
    else if (body.template_id == null) checkContent(body.content ?? '');
    const provider = body.searchOnInternet ? await this.searchService.provider() : null;
    if (body.searchOnInternet && !provider) throw badInput(SEARCH_UNAVAILABLE_MESSAGE, 'search_unavailable');
    // What the user message shows, and what the model gets instead when that differs (a rendered template).
    const { content, prompt } = hidden
      ? { content: hidden.visible, prompt: hidden.prompt }
      : body.template_id == null
        ? { content: body.content ?? '', prompt: null }
        : await this.applyTemplate(me, body.template_id, body.values);
    // An avatar's thread is found (or made) first. The conversation and the messages the model may see are read
    // with the words, in the round trip that opens the admission.
    const conversationId =
      body.conversation_id ??
      (await this.conversations.avatarThread(me, chosenAvatar!.avatar_id, chosenAvatar!.name))
        .conversation_id;
    // Template apply sends saveOnConversation false; either flag off means "this prompt alone".
    const alone = body.saveOnConversation === false || body.learnFromPrevResponse === false;
    // Who pays is the caller, whatever the conversation's scope (which chooses the provider key below).
    const payer = ownerOf(me, null, this.access);
    const promptJob = (
      { conversation, attachment }: ConversationWithAttachment,
      earlier: HistoryRow[],
      avatarId: number | null,
    ): PromptJob => ({
      owner: ownerOf(me, conversation.organization_id, this.access),
      conversation_id: conversation.conversation_id,
      model: chosenModel(body, conversation),
      history: () => Promise.resolve([{ role: 'user', content: prompt ?? content }, ...earlier]),
      attachment,
      search: provider ? { provider, query: prompt ?? content } : null,
      avatar: avatarId
        ? {
            avatar_id: avatarId,
            question: hidden?.question ?? prompt ?? content,
            thread: conversation.thread_avatar_id === avatarId,
          }
        : null,
    });
    const jobOf = (asked: PromptJob, { user_message, message }: Exchange): Job => ({
      ...asked,
      message_id: message.message_id,
      user_message_id: user_message.message_id,
      delete_user_message: body.deleteUserMsg === true,
      keep: body.saveOnConversation !== false,
    });
    let head: { asked: PromptJob; start: HeadStart } | undefined;
    // The words are reserved in the transaction that saves the exchange: refused (404, 412, 429), nothing is saved.
    // The exchange's ids are read with the conversation, so the exchange is written with the reservation and the
    // commit.
    const { reservation, stored } = await this.engine
      .admitWith(
        payer,
        body.model,
        async (_m, [target, earlier, ids]) => {
          // Admitted, and the prompt is known unless a bound avatar is still to be looked up: the provider call
          // begins while the exchange is saved and the admission commits.
          if (chosenAvatar || target.conversation.avatar_id == null) {
            const asked = promptJob(target, earlier, chosenAvatar?.avatar_id ?? null);
            head = { asked, start: this.engine.headStart({ ...this.callOf(asked), streamed: live }) };
          }
          const exchange = this.repository.exchangeRead(
            ids,
            {
              conversation_id: target.conversation.conversation_id,
              user_id: me.user_id,
              content,
              prompt,
              message_type_id: body.message_type_id ?? null,
              model: chosenModel(body, target.conversation),
            },
            this.engine.leaseMs / 1000,
            (idParam) => this.conversations.touchStatement(idParam),
          );
          return {
            reference: cancelKeys.message(ids.answer),
            statements: [exchange.statement],
            stored: ([rows]) => ({ exchange: exchange.read(rows), target, earlier }),
          };
        },
        [
          this.conversations.ownedWithAttachmentRead(me, conversationId),
          this.repository.historyRead(conversationId, alone ? 0 : HISTORY_MAX_MESSAGES - 1),
          this.repository.newExchangeIdsRead(),
        ],
      )
      .catch((err: unknown) => {
        head?.start.cancel();
        throw err;
      });
    const { exchange, target, earlier } = stored;
    const { user_message, message } = exchange;
    const asked =
      head?.asked ??
      promptJob(
        target,
        earlier,
        chosenAvatar?.avatar_id ?? (await this.boundAvatar(me, target.conversation.avatar_id)),
      );
    return {
      user_message,
      message,
      spec: this.spec(jobOf(asked, exchange), live),
      reservation,
      head: head?.start,
    };
  }

  /** The avatar a conversation is bound to, when the caller may still see it. */
  private async boundAvatar(me: Principal, avatarId: number | null): Promise<number | null> {
    if (!avatarId || !(await this.flags.isOn('avatars_enabled'))) return null;
    return (await this.avatars.visible(me, avatarId).catch(() => null))?.avatar_id ?? null;
  }

  /**
   * Applying a template needs a template the caller can see (else 404, as GET /api/templates/{id}) and a
   * non-empty value for every field; the prompt is the template rendered with them, the visible text the
   * template's name.
   */
  private async applyTemplate(
    me: Principal,
    templateId: number,
    values: Record<string, unknown> | undefined,
  ): Promise<{ content: string; prompt: string }> {
    // Applying a template is part of the templates feature (its own routes are gated by path).
    await this.flags.assertOn('templates_enabled');
    const { name, prompt } = await this.templates.render(me, templateId, values);
    checkContent(prompt);
    return { content: name, prompt };
  }

  /**
   * Regenerates the caller's own interrupted answer in place: the same row goes back to generating (content
   * null) and streams like a send. 409 message_not_interrupted for any other message.
   */
  async retry(me: Principal, messageId: number): Promise<MessageDto> {
    const current = await this.own(me, messageId);
    if (current.status !== 'interrupted' || current.role !== 'assistant')
      throw conflict('Only an interrupted answer can be retried.', 'message_not_interrupted');
    const conversation = await this.conversations.owned(me, current.conversation_id);
    const owner = ownerOf(me, conversation.organization_id, this.access);
    const reservation = await this.engine.admit(owner, null);
    const restarted = await this.repository
      .restart(messageId, this.engine.leaseMs / 1000)
      .catch(async (err: unknown) => {
        await this.engine.release(reservation);
        throw err;
      });
    if (!restarted) {
      await this.engine.release(reservation);
      throw conflict('Only an interrupted answer can be retried.', 'message_not_interrupted');
    }
    await this.engine.bind(reservation, cancelKeys.message(messageId));
    const avatarId = await this.boundAvatar(me, conversation.avatar_id);
    const job: Job = {
      owner,
      conversation_id: current.conversation_id,
      message_id: messageId,
      model: current.model,
      user_message_id: current.user_message_id,
      // The conversation before the answer, its question among it.
      history: () => this.repository.history(current.conversation_id, messageId, 0, HISTORY_MAX_MESSAGES),
      delete_user_message: false,
      keep: true,
      search: null,
      avatar: avatarId
        ? {
            avatar_id: avatarId,
            question: current.user_message_id ? await this.repository.promptOf(current.user_message_id) : '',
            thread: conversation.thread_avatar_id === avatarId,
          }
        : null,
    };
    this.engine.run(this.spec(job, true), reservation).catch(() => undefined);
    return restarted;
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
   * The caller's thread with an avatar (in the current scope): the 10 latest messages, 10 more per page. Empty
   * before the first message; an avatar the caller cannot see is 404.
   */
  async thread(me: Principal, avatarId: number, page: number | undefined): Promise<MessagePageResponse> {
    await this.flags.assertOn('avatars_enabled');
    await this.avatars.visible(me, avatarId);
    const conversation = await this.conversations.findAvatarThread(me, avatarId);
    if (!conversation) {
      const { page: number, limit } = toPage({ page }, THREAD_PAGE_SIZE);
      return { messages: [], total: 0, page: number, limit };
    }
    return this.conversationPage(me, conversation.conversation_id, page, THREAD_PAGE_SIZE);
  }

  private async conversationPage(
    me: Principal,
    conversationId: number,
    pageNumber: number | undefined,
    size: number,
  ): Promise<MessagePageResponse> {
    await this.conversations.owned(me, conversationId);
    const page = toPage({ page: pageNumber }, size);
    const { rows, total } = await this.repository.conversationPage(conversationId, page);
    return { messages: rows, total, page: page.page, limit: page.limit };
  }

  /** The caller's messages in the current scope, newest first, optionally only favorites or one type. */
  async listOwn(me: Principal, query: OwnMessagesQuery): Promise<MessagePageResponse> {
    const page = toPage(query, PAGE_SIZE);
    const { rows, total } = await this.repository.ownPage(
      me.user_id,
      this.conversations.scopeSubquery(me),
      {
        favorite: query.favorite ? query.favorite === 'true' : undefined,
        message_type_id: query.message_type_id || undefined,
      },
      page,
    );
    return { messages: rows, total, page: page.page, limit: page.limit };
  }

  async update(me: Principal, body: UpdateMessageBody): Promise<MessageDto> {
    const current = await this.own(me, body.message_id);
    const changes: { content?: string; favorite?: boolean } = {};
    if (body.content !== undefined) {
      checkContent(body.content);
      // The generation writes only into a still-pending answer; an edit now would be overwritten or lost.
      if (current.content === null)
        throw conflict('The message is still being generated.', 'message_pending');
      changes.content = body.content;
    }
    if (body.favorite !== undefined) changes.favorite = body.favorite;
    if (!Object.keys(changes).length) return current;
    const row = await this.repository.update(body.message_id, changes);
    if (!row) throw messageNotFound();
    return row;
  }

  async remove(me: Principal, messageId: number): Promise<void> {
    await this.own(me, messageId);
    await this.repository.delete([messageId]);
    // Deleting a pending answer stops its generation, on whichever instance runs it.
    this.engine.cancel(cancelKeys.message(messageId));
  }

  // ---------------------------------------------------------------- generation callbacks

  /** The generation of one answer, with the callbacks that store it. */
  private spec(job: Job, live: boolean): GenerationSpec<MessageDto> {
    const { owner, message_id, conversation_id } = job;
    return {
      id: cancelKeys.message(message_id),
      keys: [cancelKeys.conversation(conversation_id)],
      ...this.callOf(job),
      source: 'message',
      stream: live
        ? (content, offset) =>
            this.realtime.emitToUser(owner.user_id, 'message_stream', {
              conversation_id,
              message_id,
              offset,
              content,
            })
        : null,
      saving: (output) => this.repository.completeRead(job.message_id, completedAnswer(job, output)),
      // The engine saved the answer with `saving`: what is left is dropping what is not kept.
      persist: (m, _output, saved) => this.afterSave(m, job, saved ?? null),
      // An exchange kept out of the conversation leaves no row to tell whether a lost commit went through.
      stored: job.keep ? () => this.repository.findComplete(message_id) : undefined,
      // message_stream_end carries the saved row, its whole text included.
      endCarriesText: true,
      finished: (saved) => {
        if (live)
          this.realtime.emitToUser(owner.user_id, 'message_stream_end', {
            conversation_id,
            message: streamed(saved),
          });
        if (job.avatar?.thread && job.keep)
          this.realtime.emitToUser(owner.user_id, 'thread_messages', {
            avatar_id: job.avatar.avatar_id,
            conversation_id,
            messages: [streamed(saved)],
          });
      },
      checkpoint: (text, leaseMs) => this.repository.checkpoint(message_id, text, leaseMs / 1000),
      interrupt: async (text, reason) => {
        if (await this.repository.interrupt(message_id, text, reason))
          this.realtime.emitToUser(owner.user_id, 'message_interrupted', {
            conversation_id,
            message_id,
            content: text,
            reason,
          });
      },
      discard: () => this.discard(message_id),
    };
  }

  /** Who asks which model what: the part of an answer's generation its provider call needs. */
  private callOf(job: PromptJob): Pick<GenerationSpec<unknown>, 'owner' | 'model' | 'prompt'> {
    const { owner, avatar } = job;
    return {
      owner,
      model: job.model,
      prompt: {
        history: async () => fitHistory(await job.history()),
        attachment: () =>
          this.conversations.attachmentContext(job.conversation_id, job.model, job.attachment),
        search: job.search,
        avatar: avatar
          ? () => this.avatars.knowledgeFor(avatar.avatar_id, avatar.question, owner.organization_id)
          : undefined,
      },
    };
  }

  /**
   * Writes the answer in the engine's settle transaction (which charges its words), so a saved answer is always
   * paid and a charge always has its answer. Null when the pending answer no longer exists (deleted meanwhile).
   */
  /**
   * After the answer was saved (`saved`; null when it was no longer generating): an exchange kept out of the
   * conversation is deleted, and so is a question asked to be deleted.
   */
  private async afterSave(m: EntityManager, job: Job, saved: MessageDto | null): Promise<MessageDto | null> {
    if (!saved) return null;
    if (!job.keep)
      await this.repository.delete(
        [job.message_id, job.user_message_id].filter((id): id is number => id !== null),
        m,
      );
    else if (job.delete_user_message && job.user_message_id !== null)
      await this.repository.delete([job.user_message_id], m);
    return saved;
  }

  /** Removes a pending answer that will never be written; a failure here must not hide the original error. */
  private async discard(messageId: number): Promise<void> {
    await this.repository
      .deletePending(messageId)
      .catch((err: Error) =>
        this.logger.warn(`Could not delete pending message ${messageId}: ${err.message}`),
      );
  }

  /**
   * Ends the answers whose lease lapsed (the instance generating them stopped) as interrupted, with the text
   * last saved, unpaid, and tells their users; never the answers this instance is generating.
   */
  async sweepLapsed(held: string[]): Promise<void> {
    const rows = await this.repository.interruptLapsed(LAPSED_REASON, held);
    // Their words were reserved by the stopped instance; nothing was charged, nothing stays held.
    await this.engine.releaseFor(rows.map((row) => cancelKeys.message(row.message_id)));
    for (const row of rows)
      this.realtime.emitToUser(row.user_id, 'message_interrupted', {
        conversation_id: row.conversation_id,
        message_id: row.message_id,
        content: row.content,
        reason: LAPSED_REASON,
      });
  }

  /**
   * `stream_resume`: from the running generation when this instance runs it; else the instance running it
   * answers (asked over Redis), and the stored row tells the owner how an answer that no longer runs ended.
   */
  async resume(user_id: number, message_id: number, offset: number): Promise<void> {
    if (this.engine.resume(cancelKeys.message(message_id), user_id, offset)) return;
    const row = await this.repository.findOfUser(user_id, message_id);
    if (!row || row.role !== 'assistant') return;
    if (row.status === 'complete')
      this.realtime.emitToUser(user_id, 'message_stream_end', {
        conversation_id: row.conversation_id,
        message: streamed(row),
      });
    else if (row.status === 'interrupted')
      this.realtime.emitToUser(user_id, 'message_interrupted', {
        conversation_id: row.conversation_id,
        message_id: row.message_id,
        content: row.content ?? '',
        reason: row.interrupted_reason ?? LAPSED_REASON,
      });
  }

  /** One of the caller's messages in a conversation of the current scope; anything else is 404. */
  private async own(me: Principal, messageId: number): Promise<Message> {
    const row = await this.repository.findOwn(me.user_id, messageId, this.conversations.scopeSubquery(me));
    if (!row) throw messageNotFound();
    return row;
  }

  /**
   * The text of one of the caller's messages (in the current scope) and its conversation's name, for sharing
   * it as a document; 404 for anything else.
   */
  async shareable(me: Principal, messageId: number): Promise<{ content: string | null; name: string }> {
    const row = await this.own(me, messageId);
    const conversation = await this.conversations.owned(me, row.conversation_id);
    return { content: row.content, name: conversation.name };
  }

  /** Clears a conversation's messages, in the caller's transaction (a workflow step generated again). */
  async clearConversation(conversationId: number, m: EntityManager): Promise<void> {
    await this.repository.deleteConversationMessages(conversationId, m);
  }
}

/** A stored row as the socket sends it (without the REST-only partial text). */
function streamed(row: MessageDto): Omit<MessageDto, 'partial_content'> {
  const { partial_content: _partial, ...rest } = row;
  return rest;
}
