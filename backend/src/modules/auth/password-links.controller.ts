import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { EmptyResponseDto, LinkResponseDto } from '../users/dto/public-user.dto';
import { ScopeQuery } from '../../common/http/pagination';
import { EmailBodyDto } from '../users/dto/user-queries.dto';
import { AuthService } from './auth.service';

/**
 * The staff password tools of 000 §7 live under /users but belong to the reset flow, so they sit here
 * (the users module stays free of a dependency on auth).
 */
@ApiTags('users')
@Controller('users')
export class PasswordLinksController {
  constructor(private readonly auth: AuthService) {}

  @Post('sendResetPasswordLink')
  @Authenticated({ staff: 'manager' })
  @HttpCode(200)
  @ApiOperation({ summary: 'Staff: emails the user a password reset link' })
  @ApiOkResponse({ type: EmptyResponseDto })
  @ApiNotFoundResponse({ description: 'account_not_found' })
  async sendResetPasswordLink(
    @Query() _query: ScopeQuery,
    @Body() body: EmailBodyDto,
  ): Promise<EmptyResponseDto> {
    await this.auth.sendPasswordReset(body.email);
    return {};
  }

  @Post('resetPasswordLink')
  @Authenticated({ staff: 'manager' })
  @HttpCode(200)
  @ApiOperation({ summary: 'Staff: answers a password reset link to hand over (not emailed)' })
  @ApiOkResponse({ type: LinkResponseDto })
  @ApiNotFoundResponse({ description: 'account_not_found' })
  async resetPasswordLink(
    @CurrentUser() me: Principal,
    @Query() _query: ScopeQuery,
    @Body() body: EmailBodyDto,
  ): Promise<LinkResponseDto> {
    return { link: await this.auth.resetLinkFor(body.email, me) };
  }
}
