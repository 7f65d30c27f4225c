import { ApiProperty } from '@nestjs/swagger';
import { STAFF_ROLES, type StaffRole } from '../../../common/auth/permissions';

export class UserStaffDto {
  @ApiProperty() staff_id: number;
  @ApiProperty({ enum: STAFF_ROLES }) role: StaffRole;
}

/** The signed-in user as the UI sees it: every field except secrets. */
export class DefaultAssistantDto {
  @ApiProperty({ description: "The default avatar's assistant_id (our own key)" }) id: string;
  @ApiProperty() avatar_id: number;
}

export class PublicUserDto {
  @ApiProperty() user_id: number;
  @ApiProperty({ description: 'Opaque public id of the user' }) uid: string;
  @ApiProperty() name: string;
  @ApiProperty() last_name: string;
  @ApiProperty() email: string;
  @ApiProperty({ type: String, nullable: true, description: 'Digits only, at most 10' }) phone: string | null;
  @ApiProperty({ type: String, nullable: true }) company: string | null;
  @ApiProperty({ enum: ['en', 'es'] }) lang: 'en' | 'es';
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The personal API key, masked (`as_…` + last 4); the full key is shown only when created',
  })
  api_key: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the API key stops working',
  })
  api_key_expires_at: Date | null;
  @ApiProperty({ description: 'The API key carries the staff role (made by staff for staff use)' })
  api_key_staff: boolean;
  @ApiProperty({ description: 'The email address was verified through the emailed link' })
  email_verified: boolean;
  @ApiProperty({ description: 'Sign-in asks for an authenticator code' }) two_factor_enabled: boolean;
  @ApiProperty({
    description: 'A staff admin who must turn two-factor on (until then only enrolment is open)',
  })
  two_factor_required: boolean;
  @ApiProperty({ type: String, nullable: true }) zappier_webhook_url: string | null;
  @ApiProperty() manual_mode: boolean;
  @ApiProperty() dark_mode: boolean;
  @ApiProperty({ description: 'Whether the user may generate content (paid access or staff)' })
  has_access: boolean;
  @ApiProperty({ type: UserStaffDto, nullable: true }) staff: UserStaffDto | null;
  @ApiProperty({ type: Number, nullable: true, description: 'organization_id chosen when none is given' })
  default_organization: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'YYYY-MM-DD' }) birthday: string | null;
  @ApiProperty({
    type: DefaultAssistantDto,
    nullable: true,
    description: "The user's default avatar (their Super Fetch assistant); null until first made",
  })
  defaultAssistant: DefaultAssistantDto | null;
  @ApiProperty({ type: String, nullable: true }) instagram: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Profile image src' }) file: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Publicity source given at sign-up' })
  signup_reason: string | null;
  @ApiProperty({ description: 'Show the welcome video after sign-in' }) show_video: boolean;
  @ApiProperty({ description: 'Lifetime value in USD' }) value: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_used: Date | null;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: Date;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt: Date;
}

export class UserResponseDto {
  @ApiProperty({ type: PublicUserDto }) user: PublicUserDto;
}

export class ApiKeyResponseDto {
  @ApiProperty({ description: 'The full key, shown this once; send it as `Authorization: Bearer <key>`' })
  api_key: string;
  @ApiProperty({ type: String, format: 'date-time' }) expires_at: Date;
  @ApiProperty({ description: 'Whether the key carries the staff role' }) staff: boolean;
}

export class LinkResponseDto {
  @ApiProperty({ description: 'A single-use password reset link, valid for 1 hour' }) link: string;
}

/** `{}`: the spec gives no body for these answers. */
export class EmptyResponseDto {}
