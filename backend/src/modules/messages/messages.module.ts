import { AppConfigModule } from '../app-config/app-config.module';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConversationsModule } from '../conversations/conversations.module';
import { DocumentsModule } from '../documents/documents.module';
import { SearchModule } from '../search/search.module';
import { TemplatesModule } from '../templates/templates.module';
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
    ConversationsModule,
    TemplatesModule,
    SearchModule,
    DocumentsModule,
  ],
  controllers: [MessagesController, MessageExportsController],
  providers: [MessagesService, MessagesRepository, EnhanceService, MessageExportsService],
  exports: [MessagesService],
})
export class MessagesModule {}
