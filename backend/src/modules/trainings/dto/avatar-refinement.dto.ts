import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { MAX_ID } from '../../../common/http/id-param';
import { IsNameText, Trim } from '../../../common/http/validators';
import { AVATAR_NAME_REQUIRED, MAX_AVATAR_NAME } from '../../avatars/avatar-rules';

const IsId = (field: string) => (target: object, key: string) => {
  const message = `${field} must be a whole number.`;
  Type(() => Number)(target, key);
  IsInt({ message })(target, key);
  Min(1, { message })(target, key);
  Max(MAX_ID, { message })(target, key);
};

export class RefineAvatarBody {
  @ApiProperty()
  @IsId('avatar_id')
  avatar_id: number;
}

export class CombineAvatarsBody {
  @ApiProperty({ description: 'The avatar whose page the combination starts from' })
  @IsId('selected_avatar_id')
  selected_avatar_id: number;

  @ApiProperty({ description: 'The other avatar' })
  @IsId('target_avatar_id')
  target_avatar_id: number;

  @ApiProperty({ description: "A training of the other avatar: the new avatar's style guide comes from it" })
  @IsId('target_training_id')
  target_training_id: number;

  @ApiProperty({ maxLength: MAX_AVATAR_NAME, description: "The new avatar's name" })
  @Trim()
  @IsNameText(MAX_AVATAR_NAME, {
    required: AVATAR_NAME_REQUIRED,
    tooLong: `The name must be ${MAX_AVATAR_NAME} characters or fewer.`,
  })
  name: string;
}
