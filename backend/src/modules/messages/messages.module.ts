import { AppConfigModule } from '../app-config/app-config.module';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AvatarsModule } from '../avatars/avatars.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { SearchModule } from '../search/search.module';
import { TemplatesModule } from '../templates/templates.module';
import { DocumentRequestController } from './document-request.controller';
import { DocumentRequestService } from './document-request.service';
import { MessageExportsController } from './message-exports.controller';
import { MessageExportsService } from './message-exports.service';
import { MessagesController } from './messages.controller';
import { EnhanceService } from './enhance.service';
import { Message } from './message.entity';
import { MessagesRepository } from './messages.repository';
import { MessagesService } from './messages.service';

/** Messages of conversations and their AI answers (streamed over the real-time channel, paid in words). */
@Module({
  imports: [
    TypeOrmModule.forFeature([Message]),
    AppConfigModule,
    AvatarsModule,
    ConversationsModule,
    TemplatesModule,
    SearchModule,
  ],
  controllers: [MessagesController, MessageExportsController, DocumentRequestController],
  providers: [
    MessagesService,
    MessagesRepository,
    EnhanceService,
    MessageExportsService,
    DocumentRequestService,
  ],
  exports: [MessagesService],
})
export class MessagesModule {}
