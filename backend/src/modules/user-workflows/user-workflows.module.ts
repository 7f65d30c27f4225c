import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module';
import { MessagesModule } from '../messages/messages.module';
import { TemplatesModule } from '../templates/templates.module';
import { WordsModule } from '../words/words.module';
import { WorkflowsModule } from '../workflows/workflows.module';
import { UserWorkflowRunner } from './user-workflow-runner';
import { UserWorkflowsController } from './user-workflows.controller';
import { UserWorkflowsService } from './user-workflows.service';

/** Customers' runs of workflows: a conversation per step, generated in order by UserWorkflowRunner. */
@Module({
  imports: [WorkflowsModule, ConversationsModule, MessagesModule, WordsModule, TemplatesModule],
  controllers: [UserWorkflowsController],
  providers: [UserWorkflowsService, UserWorkflowRunner],
})
export class UserWorkflowsModule {}
