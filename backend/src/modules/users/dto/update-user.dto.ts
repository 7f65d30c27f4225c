import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsOptional, Min, ValidateIf } from 'class-validator';
import { USER_MESSAGES } from '../user-fields';
import {
  IsBirthday,
  IsHttpUrl,
  IsImageSrc,
  IsRequiredText,
  IsPhone,
  IsText,
  Trim,
  TrimToNull,
} from './validators';

/**
 * PUT /users: the caller's profile and settings. Every field is optional; send only what changes. Fields
 * that may be cleared accept null (or '').
 */
export class UpdateUserDto {
  @ApiPropertyOptional({ maxLength: 120 })
  @ValidateIf((o: UpdateUserDto) => o.name !== undefined)
  @Trim()
  @IsRequiredText(USER_MESSAGES.name)
  name?: string;

  @ApiPropertyOptional({ maxLength: 120 })
  @ValidateIf((o: UpdateUserDto) => o.last_name !== undefined)
  @Trim()
  @IsRequiredText(USER_MESSAGES.lastName)
  last_name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200 })
  @IsOptional()
  @TrimToNull()
  @IsText('Company must be 200 characters or fewer.', 200)
  company?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: '10 digits, separators allowed; stored as digits',
  })
  @IsOptional()
  @TrimToNull()
  @IsPhone()
  phone?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'YYYY-MM-DD' })
  @IsOptional()
  @TrimToNull()
  @IsBirthday()
  birthday?: string | null;

  @ApiPropertyOptional({ enum: ['en', 'es'] })
  @ValidateIf((o: UpdateUserDto) => o.lang !== undefined)
  @IsIn(['en', 'es'], { message: 'Language must be en or es.' })
  lang?: 'en' | 'es';

  @ApiPropertyOptional({ type: String, nullable: true, description: 'http(s) URL' })
  @IsOptional()
  @TrimToNull()
  @IsHttpUrl('The webhook URL must be an http or https URL.')
  zappier_webhook_url?: string | null;

  @ApiPropertyOptional()
  @ValidateIf((o: UpdateUserDto) => o.manual_mode !== undefined)
  @IsBoolean({ message: 'manual_mode must be true or false.' })
  manual_mode?: boolean;

  @ApiPropertyOptional()
  @ValidateIf((o: UpdateUserDto) => o.dark_mode !== undefined)
  @IsBoolean({ message: 'dark_mode must be true or false.' })
  dark_mode?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200 })
  @IsOptional()
  @TrimToNull()
  @IsText('Instagram must be 200 characters or fewer.', 200)
  instagram?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Profile image src (from POST /files)' })
  @IsOptional()
  @TrimToNull()
  @IsImageSrc('The image must be an http(s) URL or a path on this site.')
  file?: string | null;

  @ApiPropertyOptional()
  @ValidateIf((o: UpdateUserDto) => o.show_video !== undefined)
  @IsBoolean({ message: 'show_video must be true or false.' })
  show_video?: boolean;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'An organization the user belongs to, or null for Personal',
  })
  @IsOptional()
  @IsInt({ message: 'default_organization must be an organization id.' })
  @Min(1, { message: 'default_organization must be an organization id.' })
  default_organization?: number | null;
}
