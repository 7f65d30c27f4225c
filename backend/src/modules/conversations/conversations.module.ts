import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfigModule } from '../app-config/app-config.module';
import { FilesModule } from '../files/files.module';
import { WordsModule } from '../words/words.module';
import { ConversationsController } from './conversations.controller';
import { Conversation, ConversationFile, ConversationTag } from './conversation.entity';
import { ConversationsRepository } from './conversations.repository';
import { ConversationsService } from './conversations.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([Conversation, ConversationTag, ConversationFile]),
    FilesModule,
    AppConfigModule,
    WordsModule,
  ],
  controllers: [ConversationsController],
  providers: [ConversationsService, ConversationsRepository],
  exports: [ConversationsService],
})
export class ConversationsModule {}
