import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEmail, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { UserTypeView } from './organization.dto';
import { Trim, TrimLower } from './validators';

const USER_TYPE_MESSAGE = 'user_type_id must be 1 (Admin), 2 (Manager) or 3 (Member).';
const NAME_INVALID = 'Name is invalid.';
const LAST_NAME_INVALID = 'Last name is invalid.';

// ---------------------------------------------------------------- requests

export class CreateUserOrganizationBody {
  @ApiProperty()
  @Type(() => Number)
  @IsInt({ message: 'organization_id must be a whole number.' })
  @Min(1, { message: 'organization_id must be a whole number.' })
  organization_id: number;

  @ApiProperty({ description: 'Used when the account is new; an existing account keeps its name.' })
  @Trim()
  @IsString({ message: NAME_INVALID })
  @IsNotEmpty({ message: NAME_INVALID })
  @MaxLength(120, { message: NAME_INVALID })
  name: string;

  @ApiPropertyOptional({ description: 'Used when the account is new.' })
  @IsOptional()
  @Trim()
  @IsString({ message: LAST_NAME_INVALID })
  @MaxLength(120, { message: LAST_NAME_INVALID })
  last_name?: string;

  @ApiProperty()
  @TrimLower()
  @IsEmail({}, { message: 'Email is invalid.' })
  @MaxLength(254, { message: 'Email is invalid.' })
  email: string;

  @ApiProperty({ enum: [1, 2, 3], description: '1 Admin, 2 Manager, 3 Member' })
  @Type(() => Number)
  @IsIn([1, 2, 3], { message: USER_TYPE_MESSAGE })
  user_type_id: number;
}

export class UpdateUserOrganizationBody {
  @ApiProperty()
  @Type(() => Number)
  @IsInt({ message: 'user_organization_id must be a whole number.' })
  @Min(1, { message: 'user_organization_id must be a whole number.' })
  user_organization_id: number;

  @ApiPropertyOptional({ enum: [1, 2, 3], description: '1 Admin, 2 Manager, 3 Member' })
  @IsOptional()
  @Type(() => Number)
  @IsIn([1, 2, 3], { message: USER_TYPE_MESSAGE })
  user_type_id?: number;
}

// ---------------------------------------------------------------- responses

export class MemberUserView {
  @ApiProperty() user_id: number;
  @ApiProperty() name: string;
  @ApiProperty() last_name: string;
  @ApiProperty() email: string;
}

export class CampaignAccessView {
  @ApiProperty() campaign_id: number;
}

export class UserOrganizationView {
  @ApiProperty() user_organization_id: number;
  @ApiProperty() user_id: number;
  @ApiProperty() organization_id: number;
  @ApiProperty({ enum: [1, 2, 3] }) user_type_id: number;
  @ApiProperty({ type: UserTypeView }) user_type: UserTypeView;
  @ApiProperty({ type: Date, nullable: true }) last_use: Date | null;
  @ApiProperty({ type: MemberUserView }) user: MemberUserView;
  @ApiProperty({ type: [CampaignAccessView], description: 'Campaigns this member may open' })
  campaigns_access: CampaignAccessView[];
}

export class UserOrganizationResponse {
  @ApiProperty({ type: UserOrganizationView }) user_organization: UserOrganizationView;
}
