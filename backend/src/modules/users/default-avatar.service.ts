import { forwardRef, Inject, Injectable } from '@nestjs/common';
import { notFound } from '../../common/errors/domain-error';
import { UnitOfWork } from '../../database/unit-of-work';
import { AvatarsService } from '../avatars/avatars.service';
import { UsersRepository } from './users.repository';

/** Reached through forwardRef (the avatars module reaches users through the word ledger). */
type AvatarsServiceRef = AvatarsService;

/**
 * The user's default avatar (`defaultAssistant`): the Super Fetch assistant that keeps its history and learning.
 * The users module keeps the pointer on the user; the avatars module makes and deletes the avatar.
 */
@Injectable()
export class DefaultAvatarService {
  constructor(
    private readonly users: UsersRepository,
    private readonly unitOfWork: UnitOfWork,
    @Inject(forwardRef(() => AvatarsService)) private readonly avatars: AvatarsServiceRef,
  ) {}

  /**
   * POST /users/resetDefaultAvatar: a fresh default avatar replaces the previous one, which is deleted with its
   * history and learning. The user's row is locked so two resets at once leave one default avatar, not two.
   */
  async reset(userId: number): Promise<void> {
    const previous = await this.unitOfWork.run(async (m) => {
      if (!(await this.users.lockForUpdate(userId, m))) throw notFound('User', 'user_not_found');
      const user = (await this.users.findById(userId, m))!;
      const made = await this.avatars.createDefaultIn(m, userId);
      await this.users.update(
        userId,
        { default_avatar_id: made.avatar_id, default_assistant_id: made.assistant_id },
        m,
      );
      return user.default_avatar_id;
    });
    if (previous) await this.avatars.removeDefault(userId, previous);
  }
}
