import { Injectable, OnModuleInit } from '@nestjs/common';
import type { OutputPayload } from '@avatar-studio/contracts';
import type { Principal } from '../../common/auth/principal';
import { badInput, conflict, notFound } from '../../common/errors/domain-error';
import { toPage } from '../../common/http/pagination';
import { AvatarsService } from '../avatars/avatars.service';
import {
  GenerationService,
  type GenerationOwner,
  type GenerationSpec,
} from '../generation/generation.service';
import type { HistoryMessage } from '../generation/prompt-builder';
import { RealtimeService } from '../realtime/realtime.service';
import type {
  CreateOutputBody,
  GenerateOutputBody,
  OutputDto,
  OutputListQuery,
  OutputMessageBody,
  OutputPageResponse,
  RateOutputBody,
  UpdateOutputBody,
} from './dto/output.dto';
import type { Output } from './output.entity';
import { OutputOwner, OutputsRepository } from './outputs.repository';
import { OUTPUT_INSTRUCTION, styleGuideData } from './training-rules';
import { TrainingsService } from './trainings.service';

const PAGE_SIZE = 20;
const outputNotFound = () => notFound('Output', 'output_not_found');
export const outputGenerationKey = (outputId: number) => `output:${outputId}`;

/** What an output is written by: an avatar, with a training's style guide when a training is named. */
interface Writer {
  avatar_id: number;
  training_id: number | null;
  style_guide: string;
}

/**
 * Outputs: texts an avatar writes (with a training's style guide when one is named), generated on the engine
 * (words reserved, 412 without access, charged once complete), streamed as `output`, kept for their user in the
 * scope, editable, rated up or down with a note (the ratings of a training's outputs feed its refinement).
 */
@Injectable()
export class OutputsService implements OnModuleInit {
  constructor(
    private readonly repo: OutputsRepository,
    private readonly avatars: AvatarsService,
    private readonly trainings: TrainingsService,
    private readonly engine: GenerationService,
    private readonly realtime: RealtimeService,
  ) {}

  onModuleInit(): void {
    this.engine.addSweeper({ sweep: async (held) => void (await this.failLapsed(held)) });
  }

  /**
   * Outputs whose instance stopped while writing them (no renewal for three leases) end failed, and their users
   * are told; the words reserved for them were never charged.
   */
  async failLapsed(held: string[]): Promise<number> {
    const mine = held
      .filter((id) => id.startsWith('output:'))
      .map((id) => Number(id.slice('output:'.length)));
    const rows = await this.repo.failLapsed(new Date(Date.now() - this.engine.leaseMs * 3), mine);
    for (const row of rows) {
      const payload: OutputPayload = {
        output_id: row.output_id,
        avatar_id: row.avatar_id,
        training_id: row.training_id,
        content: row.content ?? '',
        offset: 0,
        done: true,
        status: 'failed',
      };
      this.realtime.emitToUser(row.user_id, 'output', payload);
    }
    return rows.length;
  }

  private owner(me: Principal): OutputOwner {
    return { user_id: me.user_id, organization_id: me.org?.organization_id ?? 0 };
  }

  private async owned(me: Principal, outputId: number): Promise<Output> {
    const output = await this.repo.findOwned(this.owner(me), outputId);
    if (!output) throw outputNotFound();
    return output;
  }

  /** The avatar (visible to the caller) or the training (visible, with its avatar) that writes. */
  private async writer(me: Principal, source: { avatar_id?: number; training_id?: number }): Promise<Writer> {
    if (source.training_id) {
      const style = await this.trainings.styleFor(me, source.training_id);
      if (source.avatar_id && source.avatar_id !== style.avatar_id)
        throw badInput('The training belongs to another avatar.', 'bad_input');
      return { avatar_id: style.avatar_id, training_id: source.training_id, style_guide: style.style_guide };
    }
    if (!source.avatar_id) throw badInput('avatar_id or training_id is required.', 'bad_input');
    await this.avatars.visible(me, source.avatar_id);
    return { avatar_id: source.avatar_id, training_id: null, style_guide: '' };
  }

  async listByAvatar(me: Principal, avatarId: number, query: OutputListQuery): Promise<OutputPageResponse> {
    await this.avatars.visible(me, avatarId);
    return this.page(me, { avatar_id: avatarId }, query);
  }

  async listByTraining(
    me: Principal,
    trainingId: number,
    query: OutputListQuery,
  ): Promise<OutputPageResponse> {
    await this.trainings.visible(me, trainingId);
    return this.page(me, { training_id: trainingId }, query);
  }

  private async page(
    me: Principal,
    of: { avatar_id: number } | { training_id: number },
    query: OutputListQuery,
  ): Promise<OutputPageResponse> {
    const page = toPage(query, PAGE_SIZE);
    const { rows, total } = await this.repo.page(this.owner(me), of, query.query, page);
    return { outputs: rows.map(toDto), total, page: page.page, limit: page.limit };
  }

  /** POST /outputs: keeps a text the user wrote (or copied) as an output of the avatar or training. */
  async create(me: Principal, body: CreateOutputBody): Promise<OutputDto> {
    const writer = await this.writer(me, body);
    const output = await this.repo.insert({
      user_id: me.user_id,
      organization_id: me.org?.organization_id ?? null,
      avatar_id: writer.avatar_id,
      training_id: writer.training_id,
      prompt: body.prompt,
      content: body.content,
      status: 'complete',
    });
    return toDto(output);
  }

  /** POST /outputs/generate: the avatar writes what is asked; the text arrives on `output`. */
  async generate(me: Principal, body: GenerateOutputBody): Promise<OutputDto> {
    const writer = await this.writer(me, body);
    return this.write(me, writer, body.prompt, body.model, [{ role: 'user', content: body.prompt }]);
  }

  /** POST /outputs/message: a new output from an earlier one and the changes the user asks for. */
  async message(me: Principal, body: OutputMessageBody): Promise<OutputDto> {
    const earlier = await this.owned(me, body.output_id);
    if (earlier.status === 'generating')
      throw conflict('This output is still being written.', 'output_generating');
    const writer = await this.writer(me, {
      avatar_id: earlier.avatar_id,
      training_id: earlier.training_id ?? undefined,
    });
    return this.write(me, writer, body.message, body.model, [
      { role: 'user', content: earlier.prompt },
      { role: 'assistant', content: earlier.content ?? '' },
      { role: 'user', content: body.message },
    ]);
  }

  private async write(
    me: Principal,
    writer: Writer,
    prompt: string,
    model: string | null | undefined,
    history: HistoryMessage[],
  ): Promise<OutputDto> {
    const owner: GenerationOwner = {
      user_id: me.user_id,
      session_id: me.session_id,
      staff: !!me.staffRole,
      organization_id: me.org?.organization_id ?? null,
    };
    const reservation = await this.engine.admit(owner, model);
    let output: Output;
    try {
      output = await this.repo.insert({
        user_id: me.user_id,
        organization_id: owner.organization_id,
        avatar_id: writer.avatar_id,
        training_id: writer.training_id,
        prompt,
        content: null,
        status: 'generating',
      });
    } catch (err) {
      await this.engine.release(reservation);
      throw err;
    }
    const emit = (content: string, offset: number, done: boolean, status: Output['status']) => {
      const payload: OutputPayload = {
        output_id: output.output_id,
        avatar_id: writer.avatar_id,
        training_id: writer.training_id,
        content,
        offset,
        done,
        status,
      };
      this.realtime.emitToUser(me.user_id, 'output', payload);
    };
    // The style guide was written by the model from outside text: it goes as data, before what is asked.
    const messages: HistoryMessage[] = writer.style_guide.trim()
      ? [{ role: 'user', content: styleGuideData(writer.style_guide) }, ...history]
      : history;
    const spec: GenerationSpec<Output> = {
      id: outputGenerationKey(output.output_id),
      owner,
      model: model?.trim() || null,
      source: 'output',
      prompt: {
        instruction: OUTPUT_INSTRUCTION,
        history: () => Promise.resolve(messages),
        avatar: () => this.avatars.knowledgeFor(writer.avatar_id, prompt, owner.organization_id),
      },
      stream: (content, offset) => emit(content, offset, false, 'generating'),
      persist: (m, result) => this.repo.complete(m, output.output_id, result.content),
      checkpoint: () => this.repo.renew(output.output_id),
      finished: (saved) => emit(saved.content ?? '', 0, true, 'complete'),
      discard: async () => {
        await this.repo.markFailed(output.output_id);
        emit('', 0, true, 'failed');
      },
      interrupt: async (text) => {
        await this.repo.markFailed(output.output_id, text);
        emit(text, 0, true, 'failed');
      },
    };
    // A failure is reported on the socket (and logged) by the engine.
    this.engine.run(spec, reservation).catch(() => undefined);
    return toDto(output);
  }

  async rate(me: Principal, body: RateOutputBody): Promise<OutputDto> {
    const output = await this.owned(me, body.output_id);
    if (output.status !== 'complete')
      throw conflict('This output is still being written.', 'output_generating');
    output.rating = body.rating;
    output.rating_note = body.note?.trim() || null;
    return toDto(await this.repo.save(output));
  }

  async update(me: Principal, body: UpdateOutputBody): Promise<OutputDto> {
    const output = await this.owned(me, body.output_id);
    if (output.status === 'generating')
      throw conflict('This output is still being written.', 'output_generating');
    output.content = body.content;
    output.status = 'complete';
    return toDto(await this.repo.save(output));
  }

  async remove(me: Principal, outputId: number): Promise<void> {
    const output = await this.owned(me, outputId);
    await this.repo.remove(output.output_id);
    if (output.status === 'generating') this.engine.cancel(outputGenerationKey(output.output_id));
  }
}

function toDto(o: Output): OutputDto {
  return {
    output_id: o.output_id,
    avatar_id: o.avatar_id,
    training_id: o.training_id,
    prompt: o.prompt,
    content: o.content,
    status: o.status,
    rating: o.rating,
    rating_note: o.rating_note,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}
