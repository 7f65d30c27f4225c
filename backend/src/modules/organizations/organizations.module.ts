import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { MailModule } from '../mail/mail.module';
import { PurchasesModule } from '../purchases/purchases.module';
import { UsersModule } from '../users/users.module';
import { WordsModule } from '../words/words.module';
import { MemberUsage } from './member-usage';
import { OrganizationAccess } from './organization-access';
import { OrganizationInvitation } from './organization-invitation.entity';
import { OrganizationInvitationsController } from './organization-invitations.controller';
import { OrganizationInvitationsService } from './organization-invitations.service';
import { Organization, UserOrganization, UserType } from './organization.entity';
import { OrganizationsController, UserOrganizationsController } from './organizations.controller';
import { OrganizationsService } from './organizations.service';
import { UserOrganizationsService } from './user-organizations.service';

/** Organizations, their settings, and who belongs to them with which role. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Organization, UserType, UserOrganization, OrganizationInvitation]),
    MailModule,
    UsersModule,
    AuthModule,
    WordsModule,
    PurchasesModule,
  ],
  controllers: [OrganizationsController, UserOrganizationsController, OrganizationInvitationsController],
  providers: [
    OrganizationsService,
    UserOrganizationsService,
    OrganizationInvitationsService,
    OrganizationAccess,
    MemberUsage,
  ],
  exports: [OrganizationsService, OrganizationAccess],
})
export class OrganizationsModule {}
