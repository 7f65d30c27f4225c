import { ApiProperty } from '@nestjs/swagger';
import { PublicUserDto } from '../../users/dto/public-user.dto';

export class TokenPairDto {
  @ApiProperty({ description: 'JWT for `Authorization: Bearer`, valid 15 minutes' }) access_token: string;
  @ApiProperty({
    description: 'Single use: each refresh answers a new one; reusing a spent one ends the session',
  })
  refresh_token: string;
  @ApiProperty({ description: 'Seconds until the access token expires' }) expires_in: number;
}

export class AuthSessionDto extends TokenPairDto {
  @ApiProperty({ type: PublicUserDto }) user: PublicUserDto;
}

/** A customer's account opened by a staff admin: a session that ends at `session_expires_at`, refreshed or not. */
export class ImpersonationSessionDto extends AuthSessionDto {
  @ApiProperty() session_expires_at: Date;
}

/** Login's answer when the account has two-factor on: complete it with POST /auth/login/2fa. */
export class TwoFactorChallengeDto {
  @ApiProperty({ enum: [true] }) two_factor_required: true;
  @ApiProperty({ description: 'Send it with the code to /auth/login/2fa; valid 5 minutes' })
  challenge_token: string;
  @ApiProperty({ description: 'Seconds the challenge stays valid' }) expires_in: number;
}

export class TwoFactorSetupDto {
  @ApiProperty({ description: 'The secret in base32, for typing into an authenticator app by hand' })
  secret: string;
  @ApiProperty({ description: 'otpauth://totp/... URI holding the same secret' }) otpauth_uri: string;
}

export class VerifyEmailResponseDto {
  @ApiProperty() email: string;
  @ApiProperty({ type: String, format: 'date-time' }) email_verified_at: Date;
}
