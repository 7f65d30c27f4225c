import { Module } from '@nestjs/common';
import { AiModule } from '../ai/ai.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { WordsModule } from '../words/words.module';
import { MessagesController } from './messages.controller';
import { MessagesService } from './messages.service';

/** Messages of conversations and their AI answers (streamed over the real-time channel, paid in words). */
@Module({
  imports: [ConversationsModule, WordsModule, AiModule],
  controllers: [MessagesController],
  providers: [MessagesService],
})
export class MessagesModule {}
