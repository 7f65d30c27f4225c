import { Module } from '@nestjs/common';
import { AppConfigModule } from '../app-config/app-config.module';
import { FilesModule } from '../files/files.module';
import { WordsModule } from '../words/words.module';
import { ConversationsController } from './conversations.controller';
import { ConversationsService } from './conversations.service';

@Module({
  imports: [FilesModule, AppConfigModule, WordsModule],
  controllers: [ConversationsController],
  providers: [ConversationsService],
  exports: [ConversationsService],
})
export class ConversationsModule {}
