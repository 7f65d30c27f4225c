import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfigModule } from '../app-config/app-config.module';
import { AvatarsModule } from '../avatars/avatars.module';
import { TemplatesModule } from '../templates/templates.module';
import { TextDocument } from './document.entity';
import { DocumentsController } from './documents.controller';
import { DocumentsRepository } from './documents.repository';
import { DocumentsService } from './documents.service';

/** Documents: a name, tags and a text (Markdown and the block editor's JSON) per user and scope, their Word
 * download, and generations into them (templates, free prompts, avatars' answers). */
@Module({
  imports: [TypeOrmModule.forFeature([TextDocument]), TemplatesModule, AppConfigModule, AvatarsModule],
  controllers: [DocumentsController],
  providers: [DocumentsService, DocumentsRepository],
  exports: [DocumentsService],
})
export class DocumentsModule {}
