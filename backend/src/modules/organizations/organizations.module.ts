import { forwardRef, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AccessPolicy } from './access-policy';
import { MembershipUseInterceptor } from './membership-use.interceptor';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { MailModule } from '../mail/mail.module';
import { UsersModule } from '../users/users.module';
import { WordsModule } from '../words/words.module';
import { MemberUsage } from './member-usage';
import { OrganizationInvitation } from './organization-invitation.entity';
import { OrganizationInvitationsController } from './organization-invitations.controller';
import { OrganizationInvitationsRepository } from './organization-invitations.repository';
import { OrganizationInvitationsService } from './organization-invitations.service';
import { Organization, UserOrganization, UserType } from './organization.entity';
import { OrganizationsController, UserOrganizationsController } from './organizations.controller';
import { OrganizationsRepository } from './organizations.repository';
import { OrganizationsService } from './organizations.service';
import { UserOrganizationsService } from './user-organizations.service';

/** Organizations, their settings, and who belongs to them with which role. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Organization, UserType, UserOrganization, OrganizationInvitation]),
    MailModule,
    forwardRef(() => UsersModule),
    forwardRef(() => AuthModule),
    WordsModule,
  ],
  controllers: [OrganizationsController, UserOrganizationsController, OrganizationInvitationsController],
  providers: [
    OrganizationsService,
    UserOrganizationsService,
    OrganizationInvitationsService,
    AccessPolicy,
    { provide: APP_INTERCEPTOR, useClass: MembershipUseInterceptor },
    MemberUsage,
    OrganizationsRepository,
    OrganizationInvitationsRepository,
  ],
  exports: [OrganizationsService, AccessPolicy],
})
export class OrganizationsModule {}
