import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../common/auth/principal';
import { scopeOf } from '../../common/database/owner-scope';
import { notFound } from '../../common/errors/domain-error';
import { toPage } from '../../common/http/pagination';
import {
  GenerationService,
  type GenerationOwner,
  type GenerationSpec,
} from '../generation/generation.service';
import { RealtimeService } from '../realtime/realtime.service';
import type {
  GenerateHashtagsBody,
  GenerateIdeasResponse,
  GenerateTopicsBody,
  IdeaDto,
  IdeaListQuery,
  IdeaPageResponse,
} from './dto/idea.dto';
import type { GeneratedIdea } from './generated-idea.entity';
import {
  DEFAULT_IDEAS,
  hashtagItems,
  hashtagsInstruction,
  topicItems,
  topicsInstruction,
  type IdeaKind,
} from './idea-rules';
import { IdeasRepository } from './ideas.repository';

const PAGE_SIZE = 20;

/** Each kind streams on its own event, so switching one feature off stops only its own. */
const IDEA_EVENTS = { topics: 'topics_output', hashtags: 'hashtags_output' } as const;
/** The key that stops one idea generation; it names its user, so only they can stop it. */
export const ideaGenerationKey = (user_id: number, generation_id: string) =>
  `ideas:${user_id}:${generation_id}`;

interface IdeaRequest {
  kind: IdeaKind;
  instruction: string;
  /** The user's own words, sent as the user message. */
  message: string;
  input: Record<string, string | number | null>;
  count: number;
  model: string | null | undefined;
  items: (text: string, count: number) => string[];
}

/**
 * Topic and hashtag ideas: generated on the engine (words reserved, 412 without access, charged once complete),
 * streamed as `topics_output` or `hashtags_output`, and saved in the user's history of their scope together with the charge.
 */
@Injectable()
export class IdeasService {
  constructor(
    private readonly repository: IdeasRepository,
    private readonly engine: GenerationService,
    private readonly realtime: RealtimeService,
  ) {}

  topics(me: Principal, body: GenerateTopicsBody): Promise<GenerateIdeasResponse> {
    const count = body.count ?? DEFAULT_IDEAS;
    const language = body.language ?? 'en';
    const audience = body.audience?.trim() || null;
    return this.generate(me, {
      kind: 'topics',
      instruction: topicsInstruction(count, language),
      message: audience ? `Subject: ${body.subject}\nAudience: ${audience}` : `Subject: ${body.subject}`,
      input: { subject: body.subject, audience, count, language },
      count,
      model: body.model,
      items: topicItems,
    });
  }

  hashtags(me: Principal, body: GenerateHashtagsBody): Promise<GenerateIdeasResponse> {
    const count = body.count ?? DEFAULT_IDEAS;
    const platform = body.platform ?? 'instagram';
    return this.generate(me, {
      kind: 'hashtags',
      instruction: hashtagsInstruction(count, platform),
      message: `My post:\n${body.text}`,
      input: { text: body.text, platform, count },
      count,
      model: body.model,
      items: hashtagItems,
    });
  }

  async list(me: Principal, kind: IdeaKind, query: IdeaListQuery): Promise<IdeaPageResponse> {
    const page = toPage(query, PAGE_SIZE);
    const { rows, total } = await this.repository.page(scopeOf(me), kind, page);
    return { ideas: rows.map(toDto), total, page: page.page, limit: page.limit };
  }

  async remove(me: Principal, kind: IdeaKind, ideaId: number): Promise<void> {
    if (!(await this.repository.delete(scopeOf(me), kind, ideaId)))
      throw notFound(kind === 'topics' ? 'Topic ideas' : 'Hashtags', 'idea_not_found');
  }

  cancel(me: Principal, generationId: string): void {
    this.engine.cancel(ideaGenerationKey(me.user_id, generationId));
  }

  private async generate(me: Principal, request: IdeaRequest): Promise<GenerateIdeasResponse> {
    const owner: GenerationOwner = {
      user_id: me.user_id,
      session_id: me.session_id,
      staff: !!me.staffRole,
      organization_id: me.org?.organization_id ?? null,
    };
    const reservation = await this.engine.admit(owner, request.model);
    const generation_id = randomUUID();
    const emit = (content: string, offset: number, done: boolean, idea_id: number | null) =>
      this.realtime.emitToUser(me.user_id, IDEA_EVENTS[request.kind], {
        generation_id,
        kind: request.kind,
        content,
        offset,
        done,
        idea_id,
      });
    const spec: GenerationSpec<GeneratedIdea> = {
      id: ideaGenerationKey(me.user_id, generation_id),
      owner,
      model: request.model?.trim() || null,
      source: request.kind,
      prompt: {
        instruction: request.instruction,
        history: () => Promise.resolve([{ role: 'user', content: request.message }]),
      },
      stream: (content, offset) => emit(content, offset, false, null),
      persist: (m, output) =>
        this.repository.insert(m, {
          user_id: me.user_id,
          organization_id: owner.organization_id,
          kind: request.kind,
          input: request.input,
          items: request.items(output.content, request.count),
          content: output.content.trim(),
        }),
      finished: (saved) => emit(saved.content, 0, true, saved.idea_id),
    };
    // A failure is reported on the socket (and logged) by the engine.
    this.engine.run(spec, reservation).catch(() => undefined);
    return { generation_id };
  }
}

function toDto(row: GeneratedIdea): IdeaDto {
  return {
    idea_id: row.idea_id,
    kind: row.kind,
    input: row.input,
    items: row.items,
    content: row.content,
    createdAt: row.createdAt,
  };
}
