import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { EmptyResponseDto, LinkResponseDto } from '../users/dto/public-user.dto';
import { EmailBodyDto } from '../users/dto/user-queries.dto';
import { AuditService } from '../audit/audit.service';
import { MailService } from '../mail/mail.service';
import { normalizeEmail } from '../users/user-fields';
import { UsersService } from '../users/users.service';
import { AuthService } from './auth.service';

/**
 * The staff password tools (reset links for a user) live under /users but belong to the reset flow, so they sit here
 * (the users module stays free of a dependency on auth).
 */
@ApiTags('users')
@Controller('users')
export class PasswordLinksController {
  constructor(
    private readonly auth: AuthService,
    private readonly users: UsersService,
    private readonly audit: AuditService,
    private readonly mail: MailService,
  ) {}

  @Post('sendResetPasswordLink')
  @Authenticated({ permission: 'users.support' })
  @HttpCode(200)
  @ApiOperation({ summary: 'Staff: emails the user a password reset link' })
  @ApiOkResponse({ type: EmptyResponseDto })
  @ApiNotFoundResponse({ description: 'account_not_found' })
  async sendResetPasswordLink(@Body() body: EmailBodyDto): Promise<EmptyResponseDto> {
    await this.auth.sendPasswordReset(body.email);
    const user = await this.users.findByEmail(normalizeEmail(body.email));
    await this.audit.record('user.reset_email_sent', { target_user_id: user?.user_id ?? null });
    return {};
  }

  @Post('resetPasswordLink')
  @Authenticated({ permission: 'users.support' })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Staff: answers a password reset link to hand over (not emailed)',
    description:
      'Recorded in the audit log; the account owner is emailed that a reset link was created (not the link).',
  })
  @ApiOkResponse({ type: LinkResponseDto })
  @ApiNotFoundResponse({ description: 'account_not_found' })
  async resetPasswordLink(
    @CurrentUser() me: Principal,
    @Body() body: EmailBodyDto,
  ): Promise<LinkResponseDto> {
    const link = await this.auth.resetLinkFor(body.email, me);
    const user = await this.users.findByEmail(normalizeEmail(body.email));
    await this.audit.record('user.reset_link_created', { target_user_id: user?.user_id ?? null });
    // The owner learns that support can now set their password; the email never carries the link.
    if (user) await this.mail.sendResetLinkNotice(user, new Date());
    return { link };
  }
}
