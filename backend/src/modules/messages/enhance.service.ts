import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../common/auth/principal';
import { badInput } from '../../common/errors/domain-error';
import { cancelKeys } from '../generation/generation-bus';
import { GenerationService, GenerationSpec } from '../generation/generation.service';
import { RealtimeService } from '../realtime/realtime.service';
import { AccessPolicy } from '../organizations/access-policy';
import type { EnhanceBody, EnhanceResponse } from './dto/message.dto';
import { checkContent, ownerOf } from './messages.service';

/** Enhance needs a text longer than this. */
export const ENHANCE_MIN_CHARS = 12;
const ENHANCE_TOO_SHORT_MESSAGE = 'Enhance is available only when the text is longer than 12 characters.';
/** The fixed instruction of prompt enhancement; the user's prompt follows as the user message. */
export const ENHANCE_SYSTEM_PROMPT = [
  'You improve prompts written for an AI assistant.',
  'Rewrite the prompt the user sends into a clearer, more specific prompt: keep its intent, language and any',
  'details it gives, make the task, audience, tone and expected format explicit where that helps.',
  'Do not answer or carry out the prompt. Answer with the improved prompt only, without any introduction,',
  'explanation, quotes or labels.',
].join(' ');

/**
 * Rewrites a prompt into a better one, run by the generation engine. Nothing is stored as a
 * message; the words are charged once the improved prompt is complete (reference `enhance:{enhance_id}`),
 * nothing when it fails or is cancelled.
 */
@Injectable()
export class EnhanceService {
  constructor(
    private readonly engine: GenerationService,
    private readonly realtime: RealtimeService,
    private readonly access: AccessPolicy,
  ) {}

  async enhance(me: Principal, body: EnhanceBody): Promise<EnhanceResponse> {
    checkContent(body.content);
    if (body.content.trim().length <= ENHANCE_MIN_CHARS)
      throw badInput(ENHANCE_TOO_SHORT_MESSAGE, 'enhance_too_short');
    const owner = ownerOf(me, me.org?.organization_id ?? null, this.access);
    const reservation = await this.engine.admit(owner, body.model);
    const enhance_id = randomUUID();
    const live = body.stream !== false;
    const spec: GenerationSpec<string> = {
      id: cancelKeys.enhance(enhance_id),
      owner,
      model: body.model?.trim() || null,
      source: 'enhance',
      prompt: {
        instruction: ENHANCE_SYSTEM_PROMPT,
        history: () => Promise.resolve([{ role: 'user', content: body.content }]),
      },
      stream: live
        ? (content) => this.realtime.emitToUser(me.user_id, 'message_stream_enhance', { enhance_id, content })
        : null,
      // Nothing stored: the improved prompt is only sent.
      persist: (_m, output) => Promise.resolve(output.content.trim()),
      finished: (content) => {
        if (live) this.realtime.emitToUser(me.user_id, 'message_stream_enhance_end', { enhance_id, content });
      },
    };
    if (!live) return { enhance_id, content: await this.engine.run(spec, reservation) };
    // The failure is already reported on the socket (and logged) by the engine.
    this.engine.run(spec, reservation).catch(() => undefined);
    return { enhance_id, content: null };
  }
}
