import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, ValidateIf } from 'class-validator';
import {
  CUSTOMER_SEARCH_FIELDS,
  CUSTOMER_SORTS,
  type CustomerSearchField,
  type CustomerSort,
} from '@avatar-studio/contracts';
import { PageInfo, PageQuery } from '../../../common/http/pagination';
import { PublicUserDto } from '../../users/dto/public-user.dto';
import { UpdateUserDto } from '../../users/dto/update-user.dto';
import { IsEmailAddress, IsPhone, IsRequiredText, NormalizeEmail, Trim } from '../../users/dto/validators';
import { USER_MESSAGES } from '../../users/user-fields';
import { WordBalanceDto } from '../../words/dto/words.dto';

/** `GET /users/admin/all`: `query` searched in `field` (default all), sorted, 50 a page. */
export class CustomersQuery extends PageQuery {
  @ApiPropertyOptional({ enum: CUSTOMER_SEARCH_FIELDS, default: 'all' })
  @IsOptional()
  @IsIn(CUSTOMER_SEARCH_FIELDS, { message: `field must be one of ${CUSTOMER_SEARCH_FIELDS.join(', ')}.` })
  field?: CustomerSearchField;

  @ApiPropertyOptional({ enum: CUSTOMER_SORTS, default: 'user_id' })
  @IsOptional()
  @IsIn(CUSTOMER_SORTS, { message: `sort must be one of ${CUSTOMER_SORTS.join(', ')}.` })
  sort?: CustomerSort;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @IsIn(['asc', 'desc'], { message: 'direction must be asc or desc.' })
  direction?: 'asc' | 'desc';
}

export class CustomerRowDto {
  @ApiProperty() user_id: number;
  @ApiProperty() name: string;
  @ApiProperty() last_name: string;
  @ApiProperty() email: string;
  @ApiProperty({ type: String, nullable: true }) phone: string | null;
  @ApiProperty({ description: 'Lifetime value in USD' }) value: number;
  @ApiProperty({ type: String, nullable: true, enum: ['admin', 'manager'] }) staff_role: string | null;
  @ApiProperty() createdAt: Date;
}

export class CustomerPageResponse extends PageInfo {
  @ApiProperty({ type: [CustomerRowDto] }) users: CustomerRowDto[];
}

export class CustomerOrganizationDto {
  @ApiProperty() organization_id: number;
  @ApiProperty() name: string;
  @ApiProperty() slug: string;
  @ApiProperty({ enum: ['Admin', 'Manager', 'Member'] }) role: string;
}

export class CustomerResponse {
  @ApiProperty({ type: PublicUserDto }) user: PublicUserDto;
  @ApiProperty({ type: WordBalanceDto }) balance: WordBalanceDto;
  @ApiProperty({
    type: [CustomerOrganizationDto],
    description: 'Their organizations and role in each (first 100)',
  })
  organizations: CustomerOrganizationDto[];
}

/** `POST /users/admin/user`: a customer made by staff, without sign-up (they set a password through recovery). */
export class CreateCustomerDto {
  @ApiProperty({ maxLength: 120 })
  @Trim()
  @IsRequiredText(USER_MESSAGES.name)
  name: string;

  @ApiProperty({ maxLength: 120 })
  @Trim()
  @IsRequiredText(USER_MESSAGES.lastName)
  last_name: string;

  @ApiProperty({ description: 'Stored lowercased and trimmed' })
  @NormalizeEmail()
  @IsEmailAddress()
  email: string;

  @ApiPropertyOptional({ description: '10 digits, separators allowed' })
  @IsOptional()
  @IsPhone()
  phone?: string;
}

export class CreatedCustomerResponse {
  @ApiProperty({ type: PublicUserDto }) user: PublicUserDto;
  @ApiProperty({ description: 'Whether the password recovery email went out' }) recovery_sent: boolean;
}

/**
 * `PUT /users/{id}/admin`: staff change a customer's profile (the fields of PUT /users a person has, and the
 * email). Every field is optional; send only what changes.
 */
export class UpdateCustomerDto extends PickType(UpdateUserDto, [
  'name',
  'last_name',
  'company',
  'phone',
  'birthday',
  'lang',
  'instagram',
] as const) {
  @ApiPropertyOptional({ description: 'Stored lowercased and trimmed; must not belong to another account' })
  @ValidateIf((o: UpdateCustomerDto) => o.email !== undefined)
  @NormalizeEmail()
  @IsEmailAddress()
  email?: string;
}

/** `POST /users/{id}/admin/impersonation`: a code that opens the customer's account once, in a new tab. */
export class ImpersonationCodeResponse {
  @ApiProperty({ description: 'Exchange it with POST /auth/impersonation; works once' }) code: string;
  @ApiProperty({ description: 'The code stops working at this time (about a minute)' }) expires_at: Date;
}
