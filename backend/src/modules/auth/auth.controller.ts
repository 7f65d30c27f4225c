import { Body, Controller, HttpCode, Post, UseGuards, UseInterceptors } from '@nestjs/common';
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
import { ThrottlerGuard } from '@nestjs/throttler';
import { Authenticated } from '../../common/auth/authenticated.decorator';
import { UserAgent } from '../../common/http/user-agent.decorator';
import { EmptyResponseDto } from '../users/dto/public-user.dto';
import { AuthService } from './auth.service';
import {
  LoginDto,
  RecoveryDto,
  RefreshDto,
  ResetPasswordDto,
  SignInTokenDto,
  SignupDto,
} from './dto/auth-requests.dto';
import { AuthSessionDto, TokenPairDto } from './dto/auth-responses.dto';
import { SignupMessagesInterceptor } from './signup-messages';

@ApiTags('auth')
@Controller('auth')
@Authenticated({ public: true })
@UseGuards(ThrottlerGuard)
@ApiTooManyRequestsResponse({ description: 'Rate limited per client address' })
export class AuthController {
  constructor(private readonly auth: AuthService) {}

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
  @ApiOperation({ summary: 'Signs in with email and password' })
  @ApiOkResponse({ type: AuthSessionDto })
  @ApiUnauthorizedResponse({ description: 'invalid_credentials' })
  login(@Body() body: LoginDto, @UserAgent() userAgent?: string): Promise<AuthSessionDto> {
    return this.auth.login(body, { user_agent: userAgent });
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
}
