import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  buildSuperFetchPrompt,
  DEFAULT_SUPER_FETCH_OUTPUTS,
  SUPER_FETCH_RESET_MESSAGE,
  type SuperFetchValues,
} from '@avatar-studio/contracts';
import type { Principal } from '../../common/auth/principal';
import { scopeOf } from '../../common/database/owner-scope';
import { badInput, notFound, unsupportedMedia } from '../../common/errors/domain-error';
import { WorkerPool } from '../../common/workers/worker-pool';
import { CONFIG_KEY_MAP } from '../app-config/app-config.keys';
import { AppConfigService } from '../app-config/app-config.service';
import { AvatarsService } from '../avatars/avatars.service';
import { attachmentExcerpt, type PromptAttachment } from '../conversations/conversation-files';
import { FilesService } from '../files/files.service';
import { extractText, TextExtractionFailed } from '../files/text-extraction';
import {
  GenerationService,
  type GenerationOwner,
  type GenerationSpec,
} from '../generation/generation.service';
import type { HistoryMessage } from '../generation/prompt-builder';
import { RealtimeService } from '../realtime/realtime.service';
import type { Reservation } from '../words/words.service';
import type {
  SuperFetchGenerateBody,
  SuperFetchGenerateResponse,
  SuperFetchHistoryResponse,
  SuperFetchMessagesBody,
  SuperFetchResetResponse,
} from './dto/super-fetch.dto';
import {
  HISTORY_LIMIT,
  LEARNING_CHARS,
  LEARNING_MESSAGES,
  missingRequiredInputs,
  requiredInputMessage,
  SUPER_FETCH_INSTRUCTION,
  SUPER_FETCH_KIND_BY_MIME,
} from './super-fetch-rules';
import type { SuperFetchMessage } from './super-fetch-message.entity';
import { SuperFetchRepository } from './super-fetch.repository';

/** The key that stops one Super Fetch output; it names its user, so only they can stop it. */
export const superFetchGenerationKey = (user_id: number, generation_id: string) =>
  `super_fetch:${user_id}:${generation_id}`;
/** The key that stops every running output of a user with one assistant (a reset). */
const assistantKey = (user_id: number, assistant_id: string) =>
  `super_fetch_assistant:${user_id}:${assistant_id}`;

const FILE_TYPES_MESSAGE = 'Super Fetch reads docx, pdf, pptx and txt files.';

interface Assistant {
  avatar_id: number;
  assistant_id: string;
}

/**
 * Super Fetch: prompts composed from the nine inputs (or sent composed), each output one generation on the
 * engine (words reserved, 412 without access, charged once complete, cancellable), streamed as
 * `super_fetch_outputs` and kept in the user's history with the assistant, which later requests learn from.
 */
@Injectable()
export class SuperFetchService {
  constructor(
    private readonly repository: SuperFetchRepository,
    private readonly engine: GenerationService,
    private readonly realtime: RealtimeService,
    private readonly avatars: AvatarsService,
    private readonly config: AppConfigService,
    private readonly files: FilesService,
    private readonly workers: WorkerPool,
  ) {}

  async history(me: Principal, assistantId: string): Promise<SuperFetchHistoryResponse> {
    const rows = await this.repository.latest(scopeOf(me), assistantId, HISTORY_LIMIT);
    return { messages: rows.map(toDto) };
  }

  /** Forgets the history with the assistant (what it learns from) and stops its running outputs. */
  async reset(me: Principal, assistantId: string): Promise<SuperFetchResetResponse> {
    this.engine.cancel(assistantKey(me.user_id, assistantId));
    await this.repository.clear(scopeOf(me), assistantId);
    return { message: SUPER_FETCH_RESET_MESSAGE };
  }

  cancel(me: Principal, generationId: string): void {
    this.engine.cancel(superFetchGenerationKey(me.user_id, generationId));
  }

  /** POST /super_fetch/v2: the prompt built from the inputs and the base prompt, `outputs` times. */
  async generate(me: Principal, body: SuperFetchGenerateBody): Promise<SuperFetchGenerateResponse> {
    const editable = [...new Set(body.editable ?? [])];
    const values: SuperFetchValues = { ...body.values };
    const missing = missingRequiredInputs(values, editable);
    if (missing.length) throw badInput(requiredInputMessage(missing[0]), 'bad_input', { fields: missing });
    const base =
      (await this.config.get('super_fetch_prompt'))?.trim() ||
      CONFIG_KEY_MAP.get('super_fetch_prompt')?.default ||
      '';
    const prompt = buildSuperFetchPrompt(base, values, { editable, feedback: body.feedback ?? null });
    const outputs = body.outputs ?? DEFAULT_SUPER_FETCH_OUTPUTS;
    return this.start(
      me,
      body,
      Array.from({ length: outputs }, () => prompt),
      body.feedback?.liked ?? null,
    );
  }

  /** POST /super_fetch: prompts already composed, one output each. */
  send(me: Principal, body: SuperFetchMessagesBody): Promise<SuperFetchGenerateResponse> {
    return this.start(
      me,
      body,
      body.messages.map((m) => m.trim()),
      null,
    );
  }

  private async start(
    me: Principal,
    target: SuperFetchMessagesBody | SuperFetchGenerateBody,
    prompts: string[],
    liked: boolean | null,
  ): Promise<SuperFetchGenerateResponse> {
    const organization_id = me.org?.organization_id ?? null;
    if (target.organization_id !== undefined && (target.organization_id ?? null) !== organization_id)
      throw badInput('organization_id must match the organization chosen with ?organization_id=.');
    const assistant = await this.assistant(me, target.assistant_id);
    const attachment = target.file_id ? await this.attachment(me, target.file_id) : null;
    const learning = await this.learning(me, assistant.assistant_id);
    const owner: GenerationOwner = {
      user_id: me.user_id,
      session_id: me.session_id,
      staff: !!me.staffRole,
      organization_id,
    };
    const reservations = await this.admitAll(owner, target.model, prompts.length);
    const request_id = randomUUID();
    const base = {
      user_id: me.user_id,
      organization_id,
      avatar_id: assistant.avatar_id,
      assistant_id: assistant.assistant_id,
      request_id,
    };
    // The prompt is kept once per distinct text (N outputs of one prompt share it).
    try {
      for (const content of new Set(prompts))
        await this.repository.insert({ ...base, role: 'user', content, liked });
    } catch (err) {
      await Promise.all(reservations.map((r) => this.engine.release(r)));
      throw err;
    }
    const generation_ids = prompts.map((prompt, index) => {
      const generation_id = randomUUID();
      const emit = (content: string, offset: number, done: boolean, message_id: number | null) =>
        this.realtime.emitToUser(me.user_id, 'super_fetch_outputs', {
          request_id,
          generation_id,
          index,
          assistant_id: assistant.assistant_id,
          content,
          offset,
          done,
          message_id,
        });
      const spec: GenerationSpec<SuperFetchMessage> = {
        id: superFetchGenerationKey(me.user_id, generation_id),
        keys: [assistantKey(me.user_id, assistant.assistant_id)],
        owner,
        model: target.model?.trim() || null,
        source: 'super_fetch',
        prompt: {
          instruction: SUPER_FETCH_INSTRUCTION,
          history: () => Promise.resolve([...learning, { role: 'user', content: prompt }]),
          attachment: () => Promise.resolve(attachment),
          avatar: () => this.avatars.knowledgeFor(assistant.avatar_id, prompt, organization_id),
        },
        stream: (content, offset) => emit(content, offset, false, null),
        persist: (m, output) =>
          this.repository.insert({ ...base, role: 'assistant', content: output.content, liked: null }, m),
        finished: (saved) => emit(saved.content, 0, true, saved.message_id),
      };
      // A failure is reported on the socket (and logged) by the engine.
      this.engine.run(spec, reservations[index]).catch(() => undefined);
      return generation_id;
    });
    return { request_id, generation_ids };
  }

  /** The caller's Super Fetch avatar named by `assistantId` in the scope (else 404). */
  private async assistant(me: Principal, assistantId: string): Promise<Assistant> {
    const { avatars } = await this.avatars.superFetch(me);
    const found = avatars.find((a) => a.assistant_id === assistantId);
    if (!found) throw notFound('Super Fetch assistant', 'avatar_not_found');
    return { avatar_id: found.avatar_id, assistant_id: found.assistant_id };
  }

  /** The attached file's text, read in the worker pool; given to the model as user content. */
  private async attachment(me: Principal, fileId: number): Promise<PromptAttachment> {
    const stored = await this.files.findOwned(me.user_id, fileId);
    const kind = SUPER_FETCH_KIND_BY_MIME[stored.type];
    if (!kind) throw unsupportedMedia(FILE_TYPES_MESSAGE);
    let text: string;
    try {
      text = await extractText(this.workers, await this.files.readBytes(stored), kind);
    } catch (err) {
      if (err instanceof TextExtractionFailed) throw badInput(err.message, 'bad_upload');
      throw err;
    }
    if (!text.trim()) throw badInput('The attached file holds no text.', 'bad_upload');
    return { kind: 'text', name: stored.name, text: attachmentExcerpt(text) };
  }

  /** The latest history with the assistant, which the next outputs learn from (each entry bounded). */
  private async learning(me: Principal, assistantId: string): Promise<HistoryMessage[]> {
    const rows = await this.repository.latest(scopeOf(me), assistantId, LEARNING_MESSAGES);
    return rows.map((r) => ({ role: r.role, content: r.content.slice(0, LEARNING_CHARS) }));
  }

  /** One reservation per output; when one is refused, those already made are released. */
  private async admitAll(
    owner: GenerationOwner,
    model: string | null | undefined,
    count: number,
  ): Promise<Reservation[]> {
    const reservations: Reservation[] = [];
    try {
      for (let i = 0; i < count; i++) reservations.push(await this.engine.admit(owner, model));
      return reservations;
    } catch (err) {
      await Promise.all(reservations.map((r) => this.engine.release(r)));
      throw err;
    }
  }
}

function toDto(row: SuperFetchMessage) {
  return {
    message_id: row.message_id,
    role: row.role,
    content: row.content,
    request_id: row.request_id,
    liked: row.liked,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
