import { Body, Controller, HttpCode, Post, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiConflictResponse, ApiExtraModels, getSchemaPath } from '@nestjs/swagger';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPreconditionFailedResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { AuthRateLimitGuard, RetryAfterInterceptor } from './auth-rate-limit';
import { TwoFactorService } from './two-factor.service';
import { UserAgent } from '../../common/http/user-agent.decorator';
import { EmptyResponseDto } from '../users/dto/public-user.dto';
import { AsksCurrentPassword } from '../users/current-password';
import { AuthService } from './auth.service';
import {
  LoginDto,
  RecoveryDto,
  RefreshDto,
  ResetPasswordDto,
  ImpersonationCodeDto,
  SignInTokenDto,
  SignupDto,
  TwoFactorCodeDto,
  TwoFactorDisableDto,
  TwoFactorLoginDto,
  VerifyEmailDto,
} from './dto/auth-requests.dto';
import {
  AuthSessionDto,
  ImpersonationSessionDto,
  TokenPairDto,
  TwoFactorChallengeDto,
  TwoFactorSetupDto,
  VerifyEmailResponseDto,
} from './dto/auth-responses.dto';
import { SignupMessagesInterceptor } from './signup-messages';

@ApiTags('auth')
@Controller('auth')
@Authenticated({ public: true })
@UseGuards(AuthRateLimitGuard)
@UseInterceptors(RetryAfterInterceptor)
@ApiTooManyRequestsResponse({
  description: 'rate_limited (per client address, and per account when an email is sent), with Retry-After',
})
@ApiExtraModels(AuthSessionDto, TwoFactorChallengeDto)
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly twoFactor: TwoFactorService,
  ) {}

  @Post('signup')
  @UseInterceptors(SignupMessagesInterceptor)
  @ApiOperation({ summary: 'Creates an account and signs it in' })
  @ApiCreatedResponse({ type: AuthSessionDto })
  @ApiBadRequestResponse({ description: "The spec's field messages ('Name is invalid.', ...)" })
  @ApiPreconditionFailedResponse({ description: 'email_exists: You already have an account, please login.' })
  @ApiForbiddenResponse({ description: 'signup_disabled: app config signup_enabled is false' })
  signup(@Body() body: SignupDto, @UserAgent() userAgent?: string): Promise<AuthSessionDto> {
    return this.auth.signup(body, { user_agent: userAgent });
  }

  @Post('login')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Signs in with email and password; with two-factor on, answers a challenge for /auth/login/2fa',
  })
  @ApiOkResponse({
    schema: {
      oneOf: [{ $ref: getSchemaPath(AuthSessionDto) }, { $ref: getSchemaPath(TwoFactorChallengeDto) }],
    },
  })
  @ApiUnauthorizedResponse({ description: 'invalid_credentials' })
  @ApiTooManyRequestsResponse({
    description: 'login_locked after repeated failures (Retry-After), or rate_limited',
  })
  login(
    @Body() body: LoginDto,
    @UserAgent() userAgent?: string,
  ): Promise<AuthSessionDto | TwoFactorChallengeDto> {
    return this.auth.login(body, { user_agent: userAgent });
  }

  @Post('login/2fa')
  @HttpCode(200)
  @ApiOperation({ summary: 'Completes a sign-in with two-factor on: the challenge token and a current code' })
  @ApiOkResponse({ type: AuthSessionDto })
  @ApiUnauthorizedResponse({
    description:
      'invalid_two_factor_code, two_factor_code_used (a code works once), invalid_two_factor_challenge',
  })
  loginTwoFactor(@Body() body: TwoFactorLoginDto, @UserAgent() userAgent?: string): Promise<AuthSessionDto> {
    return this.auth.loginTwoFactor(body.challenge_token, body.code, { user_agent: userAgent });
  }

  @Post('logout-all')
  @Authenticated({ twoFactorEnrolment: true })
  @HttpCode(204)
  @ApiOperation({
    summary: 'Signs out everywhere: every session ends, the personal API key is revoked, sockets close',
  })
  @ApiNoContentResponse()
  async logoutAll(@CurrentUser() me: Principal): Promise<void> {
    await this.auth.logoutAll(me);
  }

  @Post('verify-email')
  @HttpCode(200)
  @ApiOperation({ summary: 'Verifies the email address from the emailed link (valid 48 hours)' })
  @ApiOkResponse({ type: VerifyEmailResponseDto })
  @ApiBadRequestResponse({ description: 'invalid_verification_link, verification_link_expired' })
  verifyEmail(@Body() body: VerifyEmailDto): Promise<VerifyEmailResponseDto> {
    return this.auth.verifyEmail(body.token);
  }

  @Post('verify-email/resend')
  @Authenticated({ twoFactorEnrolment: true })
  @HttpCode(200)
  @ApiOperation({ summary: 'Emails the verification link again' })
  @ApiOkResponse({ type: EmptyResponseDto })
  @ApiConflictResponse({ description: 'email_already_verified' })
  async resendVerification(@CurrentUser() me: Principal): Promise<EmptyResponseDto> {
    await this.auth.resendVerification(me);
    return {};
  }

  @Post('2fa/setup')
  @Authenticated({ twoFactorEnrolment: true })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Staff: starts two-factor enrolment; answers the secret as a key and an otpauth URI',
  })
  @ApiOkResponse({ type: TwoFactorSetupDto })
  @ApiForbiddenResponse({ description: 'Not staff, or called with an API key' })
  @ApiConflictResponse({ description: 'two_factor_already_enabled' })
  setupTwoFactor(@CurrentUser() me: Principal): Promise<TwoFactorSetupDto> {
    return this.twoFactor.setup(me);
  }

  @Post('2fa/enable')
  @Authenticated({ twoFactorEnrolment: true })
  @HttpCode(200)
  @ApiOperation({ summary: 'Staff: confirms enrolment with a code; sign-in then asks for codes' })
  @ApiOkResponse({ type: EmptyResponseDto })
  @ApiBadRequestResponse({ description: 'invalid_two_factor_code, two_factor_not_enrolled' })
  async enableTwoFactor(
    @CurrentUser() me: Principal,
    @Body() body: TwoFactorCodeDto,
  ): Promise<EmptyResponseDto> {
    await this.twoFactor.enable(me, body.code);
    return {};
  }

  @Post('2fa/disable')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Turns two-factor off (current password and a code); required staff admins cannot',
  })
  @ApiOkResponse({ type: EmptyResponseDto })
  @ApiForbiddenResponse({ description: 'password_incorrect, or two-factor is required for staff admins' })
  @ApiBadRequestResponse({ description: 'invalid_two_factor_code, two_factor_code_used' })
  @AsksCurrentPassword('rate_limited (per client address), with Retry-After')
  async disableTwoFactor(
    @CurrentUser() me: Principal,
    @Body() body: TwoFactorDisableDto,
  ): Promise<EmptyResponseDto> {
    await this.twoFactor.disable(me, body.password, body.code);
    return {};
  }

  @Post('refresh')
  @HttpCode(200)
  @ApiOperation({ summary: 'Spends the refresh token for a new pair (reusing a spent one ends the session)' })
  @ApiOkResponse({ type: TokenPairDto })
  @ApiUnauthorizedResponse({
    description: 'invalid_refresh_token, token_expired, session_ended, refresh_token_reused',
  })
  refresh(@Body() body: RefreshDto): Promise<TokenPairDto> {
    return this.auth.refresh(body.refresh_token);
  }

  @Post('logout')
  @HttpCode(204)
  @ApiOperation({ summary: 'Ends the session; its access tokens stop working at once' })
  @ApiNoContentResponse()
  async logout(@Body() body: RefreshDto): Promise<void> {
    await this.auth.logout(body.refresh_token);
  }

  @Post('recovery')
  @HttpCode(200)
  @ApiOperation({ summary: 'Emails a password reset link (valid 1 hour, single use)' })
  @ApiOkResponse({ type: EmptyResponseDto })
  @ApiNotFoundResponse({ description: 'account_not_found' })
  async recovery(@Body() body: RecoveryDto): Promise<EmptyResponseDto> {
    await this.auth.sendPasswordReset(body.email);
    return {};
  }

  @Post('reset-password')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sets a new password from a reset token; every session of the user ends' })
  @ApiOkResponse({ type: EmptyResponseDto })
  @ApiBadRequestResponse({ description: 'invalid_reset_token, reset_token_expired, or a password message' })
  async resetPassword(@Body() body: ResetPasswordDto): Promise<EmptyResponseDto> {
    await this.auth.resetPassword(body.token, body.password);
    return {};
  }

  @Post('token')
  @HttpCode(200)
  @ApiOperation({ summary: 'Exchanges a one-time sign-in token (5 minutes) for a session' })
  @ApiOkResponse({ type: AuthSessionDto })
  @ApiUnauthorizedResponse({ description: 'invalid_sign_in_token, sign_in_token_expired' })
  token(@Body() body: SignInTokenDto, @UserAgent() userAgent?: string): Promise<AuthSessionDto> {
    return this.auth.exchangeSignInToken(body.token, { user_agent: userAgent });
  }

  @Post('impersonation')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Exchanges a staff admin's one-time code for a 15-minute session as the customer; every change in it is audited as the admin's",
  })
  @ApiOkResponse({ type: ImpersonationSessionDto })
  @ApiUnauthorizedResponse({
    description: 'impersonation_code_invalid (used, unknown), impersonation_code_expired',
  })
  impersonation(
    @Body() body: ImpersonationCodeDto,
    @UserAgent() userAgent?: string,
  ): Promise<ImpersonationSessionDto> {
    return this.auth.exchangeImpersonationCode(body.code, { user_agent: userAgent });
  }
}
