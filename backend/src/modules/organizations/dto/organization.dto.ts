import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, MaxLength, Min, ValidateIf } from 'class-validator';
import { PageQuery, ScopeQuery } from '../../../common/http/pagination';
import {
  IsCalendarDay,
  IsHostNameOrEmpty,
  IsMediaSrcOrEmpty,
  NormalizeHost,
  Trim,
  TrimLower,
} from './validators';

export const NAME_REQUIRED = 'Please add a name to your organization';
const NAME_TOO_LONG = 'The organization name must be 120 characters or fewer.';
const SECRET_NOTE =
  'Encrypted at rest and answered masked. Send the masked value back to keep it, "" to clear it.';

// ---------------------------------------------------------------- requests

/** The settings fields shared by create and update. */
export class OrganizationFieldsBody {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255 })
  @IsOptional()
  @Trim()
  @IsString({ message: 'The tagline must be text.' })
  @MaxLength(255, { message: 'The tagline must be 255 characters or fewer.' })
  tagline?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'An uploaded file src (/api/files/content/...) or an http(s) URL; "" clears it.',
  })
  @IsOptional()
  @Trim()
  @IsMediaSrcOrEmpty({ message: 'The thumbnail must be an uploaded file or an http(s) URL.' })
  thumbnail?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'An uploaded video src (/api/files/content/...) or an http(s) URL; "" clears it.',
  })
  @IsOptional()
  @Trim()
  @IsMediaSrcOrEmpty({ message: 'The welcome video must be an uploaded file or an http(s) URL.' })
  welcome_video?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'app.acme.com',
    description: 'Host name that selects this organization; unique. "" clears it.',
  })
  @IsOptional()
  @NormalizeHost()
  @IsHostNameOrEmpty({ message: 'The domain must be a host name such as app.example.com.' })
  domain?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Stripe publishable key (not secret).' })
  @IsOptional()
  @Trim()
  @IsString({ message: 'The Stripe public key must be text.' })
  @MaxLength(255, { message: 'The Stripe public key must be 255 characters or fewer.' })
  stripe_public?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: SECRET_NOTE })
  @IsOptional()
  @Trim()
  @IsString({ message: 'The Stripe secret key must be text.' })
  @MaxLength(500, { message: 'The Stripe secret key must be 500 characters or fewer.' })
  stripe_secret?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: SECRET_NOTE })
  @IsOptional()
  @Trim()
  @IsString({ message: 'The Stripe webhook secret must be text.' })
  @MaxLength(500, { message: 'The Stripe webhook secret must be 500 characters or fewer.' })
  stripe_webhook_secret?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: SECRET_NOTE })
  @IsOptional()
  @Trim()
  @IsString({ message: 'The OpenAI API key must be text.' })
  @MaxLength(500, { message: 'The OpenAI API key must be 500 characters or fewer.' })
  openai_api_key?: string | null;

  @ApiPropertyOptional({
    maxLength: 120,
    example: 'acme-co',
    description:
      'The organization in the path (/{slug}/...): lowercase letters, digits and dashes, unique, never one of the ' +
      "app's own routes (400 slug_reserved). Made from the name when left out on create; unchanged on update.",
  })
  @IsOptional()
  @TrimLower()
  @IsString({ message: 'The slug must be text.' })
  @MaxLength(140, { message: 'The slug is too long.' })
  slug?: string;
}

export class CreateOrganizationBody extends OrganizationFieldsBody {
  @ApiProperty({ maxLength: 120 })
  @Trim()
  @MaxLength(120, { message: NAME_TOO_LONG })
  // Listed last so its message comes first when the name is missing (rules report bottom-up).
  @IsString({ message: NAME_REQUIRED })
  @IsNotEmpty({ message: NAME_REQUIRED })
  name: string;
}

export class UpdateOrganizationBody extends OrganizationFieldsBody {
  @ApiProperty()
  @Type(() => Number)
  @IsInt({ message: 'organization_id must be a whole number.' })
  @Min(1, { message: 'organization_id must be a whole number.' })
  organization_id: number;

  @ApiPropertyOptional({ maxLength: 120, description: 'Unchanged when left out.' })
  @ValidateIf((o: UpdateOrganizationBody) => o.name !== undefined)
  @Trim()
  @MaxLength(120, { message: NAME_TOO_LONG })
  // Listed last so its message comes first when the name is missing (rules report bottom-up).
  @IsString({ message: NAME_REQUIRED })
  @IsNotEmpty({ message: NAME_REQUIRED })
  name?: string;
}

export class MyOrganizationsQuery extends ScopeQuery {
  @ApiPropertyOptional({ description: 'Search by name' })
  @IsOptional()
  @IsString()
  @MaxLength(200, { message: 'The search text is too long.' })
  query?: string;
}

export class AllOrganizationsQuery extends PageQuery {}

export class OrganizationLookupQuery extends ScopeQuery {
  @ApiPropertyOptional({ description: 'The organization slug' })
  @IsOptional()
  @TrimLower()
  @IsString()
  @MaxLength(140, { message: 'The slug is too long.' })
  slug?: string;

  @ApiPropertyOptional({ description: 'A host name, e.g. app.acme.com (a port is ignored)' })
  @IsOptional()
  @NormalizeHost()
  @IsString()
  @MaxLength(253, { message: 'The domain is too long.' })
  domain?: string;
}

export class DeleteOrganizationQuery extends ScopeQuery {
  @ApiPropertyOptional({ description: "The organization's name, typed exactly, to confirm" })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;
}

export class OrganizationUsersQuery extends PageQuery {
  @ApiPropertyOptional({
    example: '2025-01-01',
    description: 'YYYY-MM-DD; default the first day of this month',
  })
  @IsOptional()
  @IsCalendarDay({ message: 'start_date must be a date written YYYY-MM-DD.' })
  start_date?: string;

  @ApiPropertyOptional({
    example: '2025-01-31',
    description: 'YYYY-MM-DD, inclusive; default the last day of this month',
  })
  @IsOptional()
  @IsCalendarDay({ message: 'end_date must be a date written YYYY-MM-DD.' })
  end_date?: string;
}

// ---------------------------------------------------------------- responses

export class UserTypeView {
  @ApiProperty({ enum: [1, 2, 3], description: '1 Admin, 2 Manager, 3 Member' }) user_type_id: number;
  @ApiProperty({ enum: ['Admin', 'Manager', 'Member'] }) name: string;
}

/** One organization with its settings; secrets are masked, and hidden (null) from Members. */
export class OrganizationView {
  @ApiProperty() organization_id: number;
  @ApiProperty() name: string;
  @ApiProperty() slug: string;
  @ApiProperty({ type: String, nullable: true }) tagline: string | null;
  @ApiProperty({ type: String, nullable: true }) thumbnail: string | null;
  @ApiProperty({ type: String, nullable: true }) welcome_video: string | null;
  @ApiProperty({ type: String, nullable: true }) domain: string | null;
  @ApiProperty({ type: String, nullable: true }) stripe_public: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Masked' }) stripe_secret: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Masked' }) stripe_webhook_secret: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Masked' }) openai_api_key: string | null;
  @ApiProperty({
    type: UserTypeView,
    nullable: true,
    description: "The caller's role here; null for staff who are not members",
  })
  user_type: UserTypeView | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class OrganizationResponse {
  @ApiProperty({ type: OrganizationView }) organization: OrganizationView;
}

export class MyOrganization {
  @ApiProperty() organization_id: number;
  @ApiProperty() name: string;
  @ApiProperty() slug: string;
  @ApiProperty({ type: String, nullable: true }) tagline: string | null;
  @ApiProperty({ type: String, nullable: true }) thumbnail: string | null;
  @ApiProperty({ type: String, nullable: true }) domain: string | null;
  @ApiProperty({ type: UserTypeView }) user_type: UserTypeView;
}

export class MyOrganizationsResponse {
  @ApiProperty({ type: [MyOrganization] }) organizations: MyOrganization[];
}

export class AdminOrganization {
  @ApiProperty() organization_id: number;
  @ApiProperty() name: string;
  @ApiProperty() slug: string;
  @ApiProperty({ type: String, nullable: true }) tagline: string | null;
  @ApiProperty({ type: String, nullable: true }) thumbnail: string | null;
  @ApiProperty({ type: String, nullable: true }) domain: string | null;
  @ApiProperty({ description: 'Number of members' }) users_count: number;
  @ApiProperty({ type: UserTypeView, nullable: true, description: "The caller's role there, if a member" })
  user_type: UserTypeView | null;
  @ApiProperty() createdAt: Date;
}

export class AllOrganizationsResponse {
  @ApiProperty({ type: [AdminOrganization] }) organizations: AdminOrganization[];
  @ApiProperty() total: number;
  @ApiProperty() page: number;
  @ApiProperty() limit: number;
}

/** What anyone may learn about an organization, to brand the sign-in pages of its domain. */
export class PublicOrganization {
  @ApiProperty() organization_id: number;
  @ApiProperty() name: string;
  @ApiProperty() slug: string;
  @ApiProperty({ type: String, nullable: true }) tagline: string | null;
  @ApiProperty({ type: String, nullable: true }) thumbnail: string | null;
  @ApiProperty({ type: String, nullable: true }) welcome_video: string | null;
  @ApiProperty({ type: String, nullable: true }) domain: string | null;
}

export class PublicOrganizationResponse {
  @ApiProperty({ type: PublicOrganization }) organization: PublicOrganization;
}

export class OrganizationUserRow {
  @ApiProperty() user_organization_id: number;
  @ApiProperty() user_id: number;
  @ApiProperty() name: string;
  @ApiProperty() last_name: string;
  @ApiProperty() email: string;
  @ApiProperty({ enum: ['Admin', 'Manager', 'Member'], description: 'The user type name' }) role: string;
  @ApiProperty({ enum: [1, 2, 3] }) user_type_id: number;
  @ApiProperty({ description: 'Words generated in this organization within the date range' })
  total_words: number;
  @ApiProperty({
    type: Date,
    nullable: true,
    description: 'Last use of the organization, when it falls within the date range',
  })
  last_used: Date | null;
  @ApiProperty({ description: 'Lifetime value in USD' }) ltv: number;
}

export class OrganizationUsersResponse {
  @ApiProperty({ type: [OrganizationUserRow] }) users: OrganizationUserRow[];
  @ApiProperty() total: number;
  @ApiProperty() page: number;
  @ApiProperty() limit: number;
  @ApiProperty({ description: 'The range applied, YYYY-MM-DD' }) start_date: string;
  @ApiProperty({ description: 'The range applied, YYYY-MM-DD (inclusive)' }) end_date: string;
}
