import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, ValidateBy } from 'class-validator';
import {
  IsEmailAddress,
  IsNewPassword,
  IsPhone,
  IsRequiredText,
  IsText,
  NormalizeEmail,
  Trim,
  TrimToNull,
} from '../../users/dto/validators';
import { USER_MESSAGES } from '../../users/user-fields';

export const SIGNUP_REASONS = ['Recommendation', 'Facebook Ad', 'Instagram Ad'] as const;

export class SignupDto {
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

  @ApiProperty({ minLength: 6, maxLength: 200 })
  @IsNewPassword()
  password: string;

  @ApiPropertyOptional({ description: 'When sent, it must equal password' })
  @IsOptional()
  @ValidateBy(
    {
      name: 'matchesPassword',
      validator: { validate: (value: unknown, args) => value === (args?.object as SignupDto).password },
    },
    { message: 'Passwords do not match.' },
  )
  confirm_password?: string;

  @ApiProperty({ description: '10 digits, separators allowed; stored as the digits' })
  @IsPhone()
  phone: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 200,
    description: `Publicity source: ${SIGNUP_REASONS.join(', ')}, or the free text given for Other`,
  })
  @IsOptional()
  @TrimToNull()
  @IsText('The sign-up reason must be 200 characters or fewer.', 200)
  signup_reason?: string | null;
}

export class LoginDto {
  @ApiProperty()
  @NormalizeEmail()
  @IsEmailAddress(USER_MESSAGES.email, { localHosts: true })
  email: string;

  @ApiProperty()
  @IsRequiredText('Password is required.', 200)
  password: string;
}

export class RefreshDto {
  @ApiProperty()
  @IsRequiredText('refresh_token is required.', 200)
  refresh_token: string;
}

export class RecoveryDto {
  @ApiProperty({ description: 'Lowercased and trimmed before the lookup' })
  @NormalizeEmail()
  @IsEmailAddress(USER_MESSAGES.email, { localHosts: true })
  email: string;
}

export class ResetPasswordDto {
  @ApiProperty({ description: 'The token from the reset link' })
  @IsRequiredText('The reset token is required.', 200)
  token: string;

  @ApiProperty({ minLength: 6, maxLength: 200 })
  @IsNewPassword()
  password: string;
}

export class SignInTokenDto {
  @ApiProperty({ description: 'A one-time sign-in token (valid 5 minutes)' })
  @IsRequiredText('The sign-in token is required.', 200)
  token: string;
}

export class ImpersonationCodeDto {
  @ApiProperty({ description: "A staff admin's one-time code to open a customer's account" })
  @IsRequiredText('The code is required.', 200)
  code: string;
}

export class TwoFactorLoginDto {
  @ApiProperty({ description: 'The challenge_token answered by /auth/login' })
  @IsRequiredText('The sign-in step is missing, please sign in again.', 200)
  challenge_token: string;

  @ApiProperty({ description: 'The 6-digit code of the authenticator app' })
  @IsRequiredText('Type the 6-digit code of your authenticator app.', 20)
  code: string;
}

export class TwoFactorCodeDto {
  @ApiProperty({ description: 'The 6-digit code of the authenticator app' })
  @IsRequiredText('Type the 6-digit code of your authenticator app.', 20)
  code: string;
}

export class TwoFactorDisableDto extends TwoFactorCodeDto {
  @ApiProperty({ description: 'The current password' })
  @IsRequiredText('Please type your current password to confirm.', 200)
  password: string;
}

export class VerifyEmailDto {
  @ApiProperty({ description: 'The token from the verification link' })
  @IsRequiredText('The verification link is not complete.', 400)
  token: string;
}
