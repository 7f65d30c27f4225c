import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DocumentsModule } from '../documents/documents.module';
import { FilesModule } from '../files/files.module';
import { GroupsModule } from '../groups/groups.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { TemplatesModule } from '../templates/templates.module';
import { UsersModule } from '../users/users.module';
import { Campaign, CampaignGroup, CampaignResource, CampaignUser } from './campaign.entity';
import { CampaignDocumentsController } from './campaign-documents.controller';
import { CampaignsController } from './campaigns.controller';
import { CampaignsRepository } from './campaigns.repository';
import { CampaignsService } from './campaigns.service';

/** Campaigns: an organization's documents and templates given to some of its users and groups. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Campaign, CampaignUser, CampaignGroup, CampaignResource]),
    OrganizationsModule,
    GroupsModule,
    UsersModule,
    FilesModule,
    DocumentsModule,
    TemplatesModule,
  ],
  controllers: [CampaignsController, CampaignDocumentsController],
  providers: [CampaignsService, CampaignsRepository],
  exports: [CampaignsService],
})
export class CampaignsModule {}
