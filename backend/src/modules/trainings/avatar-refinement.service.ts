import { Injectable } from '@nestjs/common';
import type { Principal } from '../../common/auth/principal';
import { badInput, notFound } from '../../common/errors/domain-error';
import { AiError } from '../ai/ai.errors';
import { AVATAR_NOTHING_RATED, COMBINE_SAME_AVATAR } from '../avatars/avatar-rules';
import { AvatarsService } from '../avatars/avatars.service';
import type { AvatarDto } from '../avatars/dto/avatar.dto';
import { GenerationService, type GenerationOwner } from '../generation/generation.service';
import type { CombineAvatarsBody } from './dto/avatar-refinement.dto';
import { OutputsRepository } from './outputs.repository';
import {
  AVATAR_REFINE_INSTRUCTION,
  avatarRefineRequest,
  NOT_EXECUTED,
  REFINE_OUTPUTS,
} from './training-rules';
import { TrainingsService } from './trainings.service';

/**
 * The avatar calls that need its trainings and outputs (so they live beside them): refine rewrites the avatar's
 * instructions (its context) from its rated outputs on the generation engine; combine makes a new avatar from
 * two, with the style guide of one of the other avatar's trainings.
 */
@Injectable()
export class AvatarRefinementService {
  constructor(
    private readonly avatars: AvatarsService,
    private readonly trainings: TrainingsService,
    private readonly outputs: OutputsRepository,
    private readonly engine: GenerationService,
  ) {}

  /** POST /avatars/refine: answers once the new instructions are saved (metered like any generation). */
  async refine(me: Principal, avatarId: number): Promise<AvatarDto> {
    const avatar = await this.avatars.manageable(me, avatarId);
    await this.avatars.requirePremium(me);
    const rated = await this.outputs.ratedOfAvatar(avatarId, REFINE_OUTPUTS);
    if (!rated.length) throw badInput(AVATAR_NOTHING_RATED, 'avatar_nothing_rated');
    const owner: GenerationOwner = {
      user_id: me.user_id,
      session_id: me.session_id,
      staff: !!me.staffRole,
      organization_id: me.org?.organization_id ?? null,
    };
    const reservation = await this.engine.admit(owner, null);
    const request = avatarRefineRequest(
      avatar.context,
      rated.map((o) => ({ rating: o.rating!, note: o.rating_note, content: o.content ?? '' })),
    );
    await this.engine
      .run(
        {
          id: `avatar:${avatarId}:refine:${Date.now()}`,
          owner,
          keys: [`avatar:${avatarId}`],
          model: null,
          source: 'avatar_refine',
          prompt: {
            instruction: AVATAR_REFINE_INSTRUCTION,
            history: () => Promise.resolve([{ role: 'user', content: request }]),
          },
          stream: null,
          // An empty answer keeps the instructions as they were; null (nothing charged) when the avatar was deleted.
          persist: async (m, output) =>
            (await this.avatars.replaceContextIn(
              m,
              avatarId,
              output.content.trim() ? output.content : avatar.context,
            ))
              ? true
              : null,
        },
        reservation,
      )
      .catch(async (err: unknown) => {
        // The engine reports a target deleted meanwhile as cancelled: then the avatar is gone (404).
        if (err instanceof AiError && err.code === 'ai_cancelled') await this.avatars.visible(me, avatarId);
        throw err;
      });
    return this.avatars.get(me, avatarId);
  }

  /**
   * POST /avatars/combine: both avatars must be the caller's to change (404 when not visible, 403 when another's)
   * and the training must be one of the target avatar's, executed (its style guide written).
   */
  async combine(me: Principal, body: CombineAvatarsBody): Promise<AvatarDto> {
    if (body.selected_avatar_id === body.target_avatar_id)
      throw badInput(COMBINE_SAME_AVATAR, 'avatar_combine_same');
    const selected = await this.avatars.manageable(me, body.selected_avatar_id);
    const target = await this.avatars.manageable(me, body.target_avatar_id);
    await this.avatars.requirePremium(me);
    const training = await this.trainings.styleFor(me, body.target_training_id);
    if (training.avatar_id !== target.avatar_id) throw notFound('Training', 'training_not_found');
    if (!training.style_guide.trim()) throw badInput(NOT_EXECUTED, 'training_not_executed');
    return this.avatars.combine(me, selected, target, body.name, training.style_guide);
  }
}
