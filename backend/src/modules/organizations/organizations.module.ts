import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { UsersModule } from '../users/users.module';
import { WordsModule } from '../words/words.module';
import { MemberUsage } from './member-usage';
import { OrganizationAccess } from './organization-access';
import { Organization, UserOrganization, UserType } from './organization.entity';
import { OrganizationsController, UserOrganizationsController } from './organizations.controller';
import { OrganizationsService } from './organizations.service';
import { UserOrganizationsService } from './user-organizations.service';

/** Organizations, their settings, and who belongs to them with which role. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Organization, UserType, UserOrganization]),
    UsersModule,
    AuthModule,
    WordsModule,
  ],
  controllers: [OrganizationsController, UserOrganizationsController],
  providers: [OrganizationsService, UserOrganizationsService, OrganizationAccess, MemberUsage],
  exports: [OrganizationsService, OrganizationAccess],
})
export class OrganizationsModule {}
