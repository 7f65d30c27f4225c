import { ApiProperty } from '@nestjs/swagger';
import { ScopeQuery } from '../../../common/http/pagination';
import { USER_MESSAGES } from '../user-fields';
import { IsEmailAddress, IsPhone, NormalizeEmail } from './validators';

export class EmailLookupQuery extends ScopeQuery {
  @ApiProperty()
  @NormalizeEmail()
  @IsEmailAddress(USER_MESSAGES.email, { localHosts: true })
  email: string;
}

export class PhoneLookupQuery extends ScopeQuery {
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
