import { forwardRef, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfigModule } from '../app-config/app-config.module';
import { MailModule } from '../mail/mail.module';
import { StaffModule } from '../staff/staff.module';
import { UsersModule } from '../users/users.module';
import { AuthRepository } from './auth.repository';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { FirstAdminService } from './first-admin.service';
import { PasswordLinksController } from './password-links.controller';
import { AuthToken, RefreshToken, Session } from './session.entity';
import { SignupMessagesInterceptor } from './signup-messages';
import { AuthRateLimitGuard } from './auth-rate-limit';
import { TwoFactorService } from './two-factor.service';

/** Sign-up, sign-in, sessions, password reset, one-time sign-in tokens, and the first staff admin. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Session, RefreshToken, AuthToken]),
    forwardRef(() => UsersModule),
    forwardRef(() => StaffModule),
    AppConfigModule,
    MailModule,
  ],
  controllers: [AuthController, PasswordLinksController],
  providers: [
    AuthService,
    AuthRepository,
    FirstAdminService,
    SignupMessagesInterceptor,
    TwoFactorService,
    AuthRateLimitGuard,
  ],
  exports: [AuthService],
})
export class AuthModule {}
