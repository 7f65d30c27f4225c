import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AvatarsModule } from '../avatars/avatars.module';
import { FilesModule } from '../files/files.module';
import { WordsModule } from '../words/words.module';
import { WidgetConversation } from './widget-conversation.entity';
import { WidgetMessage } from './widget-message.entity';
import { Widget } from './widget.entity';
import { WidgetsController, WidgetVisitorsController } from './widgets.controller';
import { WidgetsRepository } from './widgets.repository';
import { WidgetsService } from './widgets.service';

/**
 * Chat widgets (widgets, widget_conversations, widget_messages): the owners' routes under /api/widgets and the
 * visitors' under /api/widget/{key}, whose CORS the bootstrap asks this module about.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Widget, WidgetConversation, WidgetMessage]),
    AvatarsModule,
    FilesModule,
    WordsModule,
  ],
  controllers: [WidgetsController, WidgetVisitorsController],
  providers: [WidgetsService, WidgetsRepository],
  exports: [WidgetsService],
})
export class WidgetModule {}
