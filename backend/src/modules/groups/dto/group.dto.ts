import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { CAMPAIGN_MESSAGES, MAX_GROUP_NAME } from '@avatar-studio/contracts';
import { MAX_ID } from '../../../common/http/id-param';
import { PageInfo, PageQuery } from '../../../common/http/pagination';
import { IsNameText, Trim } from '../../../common/http/validators';

const IsGroupName = () =>
  IsNameText(MAX_GROUP_NAME, {
    required: CAMPAIGN_MESSAGES.groupNameRequired,
    tooLong: `The name must be ${MAX_GROUP_NAME} characters or fewer.`,
  });

const IsId = (name: string): PropertyDecorator => {
  const message = `${name} must be a whole number.`;
  return (target, key) => {
    Type(() => Number)(target, key);
    IsInt({ message })(target, key);
    Min(1, { message })(target, key);
    Max(MAX_ID, { message })(target, key);
  };
};

export class GroupUserSummary {
  @ApiProperty()
  user_id: number;

  @ApiProperty()
  name: string;

  @ApiProperty()
  last_name: string;

  @ApiProperty()
  email: string;
}

export class GroupUserDto {
  @ApiProperty()
  user_id: number;

  @ApiProperty({ type: GroupUserSummary })
  user: GroupUserSummary;
}

export class GroupDto {
  @ApiProperty()
  group_id: number;

  @ApiProperty()
  organization_id: number;

  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'How many users the group holds' })
  users: number;

  @ApiProperty()
  createdAt: Date;

  @ApiProperty()
  updatedAt: Date;
}

export class GroupDetailDto extends GroupDto {
  @ApiProperty({ type: [GroupUserDto], description: 'Its users, first added first' })
  group_users: GroupUserDto[];
}

export class GroupListQuery extends PageQuery {}

export class GroupPageResponse extends PageInfo {
  @ApiProperty({ type: [GroupDto] })
  groups: GroupDto[];
}

export class GroupResponse {
  @ApiProperty({ type: GroupDetailDto })
  group: GroupDetailDto;
}

export class CreateGroupBody {
  @ApiProperty({ maxLength: MAX_GROUP_NAME })
  @Trim()
  @IsGroupName()
  name: string;

  @ApiProperty()
  @IsId('organization_id')
  organization_id: number;
}

export class UpdateGroupBody {
  @ApiProperty()
  @IsId('group_id')
  group_id: number;

  @ApiProperty({ maxLength: MAX_GROUP_NAME })
  @Trim()
  @IsGroupName()
  name: string;
}
