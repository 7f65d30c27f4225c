import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { USER_MESSAGES } from '../user-fields';
import { IsEmailAddress, IsPhone, NormalizeEmail } from './validators';

/** Every authenticated query may carry the organization scope; the auth guard checks it. */
export class ScopedQuery {
  @ApiPropertyOptional({ description: 'Organization scope' })
  @IsOptional()
  organization_id?: string;
}

export class EmailLookupQuery extends ScopedQuery {
  @ApiProperty()
  @NormalizeEmail()
  @IsEmailAddress(USER_MESSAGES.email, { localHosts: true })
  email: string;
}

export class PhoneLookupQuery extends ScopedQuery {
  @ApiProperty({ description: '10 digits, separators allowed' })
  @IsPhone()
  phone: string;
}

/** `{ email }` bodies of the staff password tools. */
export class EmailBodyDto {
  @ApiProperty()
  @NormalizeEmail()
  @IsEmailAddress(USER_MESSAGES.email, { localHosts: true })
  email: string;
}
