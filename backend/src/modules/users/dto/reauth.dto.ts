import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  API_KEY_EXPIRY_DAYS,
  DEFAULT_API_KEY_EXPIRY_DAYS,
  type ApiKeyExpiryDays,
} from '@avatar-studio/contracts';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { IsRequiredText } from './validators';

const PASSWORD_REQUIRED = 'Please type your current password to confirm.';

/** A dangerous act confirmed with the current password. */
export class CurrentPasswordDto {
  @ApiProperty({ description: 'The current password, typed again to confirm' })
  @IsRequiredText(PASSWORD_REQUIRED, 200)
  password: string;
}

export class CreateApiKeyDto extends CurrentPasswordDto {
  @ApiPropertyOptional({ enum: API_KEY_EXPIRY_DAYS, default: DEFAULT_API_KEY_EXPIRY_DAYS })
  @IsOptional()
  @Type(() => Number)
  @IsIn(API_KEY_EXPIRY_DAYS, {
    message: `The key lifetime must be one of ${API_KEY_EXPIRY_DAYS.join(', ')} days.`,
  })
  expires_in_days?: ApiKeyExpiryDays;

  @ApiPropertyOptional({ description: 'Staff only: the key carries the staff role', default: false })
  @IsOptional()
  @IsBoolean({ message: 'staff must be true or false.' })
  staff?: boolean;
}
