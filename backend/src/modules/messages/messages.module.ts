import { Module } from '@nestjs/common';
import { AvatarsModule } from '../avatars/avatars.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { SearchModule } from '../search/search.module';
import { TemplatesModule } from '../templates/templates.module';
import { MessageExportsController } from './message-exports.controller';
import { MessageExportsService } from './message-exports.service';
import { MessagesController } from './messages.controller';
import { EnhanceService } from './enhance.service';
import { MessagesService } from './messages.service';

/** Messages of conversations and their AI answers (streamed over the real-time channel, paid in words). */
@Module({
  imports: [AvatarsModule, ConversationsModule, TemplatesModule, SearchModule],
  controllers: [MessagesController, MessageExportsController],
  providers: [MessagesService, EnhanceService, MessageExportsService],
  exports: [MessagesService],
})
export class MessagesModule {}
