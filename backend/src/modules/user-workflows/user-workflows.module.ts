import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConversationsModule } from '../conversations/conversations.module';
import { MessagesModule } from '../messages/messages.module';
import { TemplatesModule } from '../templates/templates.module';
import { WordsModule } from '../words/words.module';
import { WorkflowsModule } from '../workflows/workflows.module';
import { UserWorkflow, UserWorkflowStep } from './user-workflow.entity';
import { UserWorkflowRunner } from './user-workflow-runner';
import { UserWorkflowsRepository } from './user-workflows.repository';
import { UserWorkflowsController } from './user-workflows.controller';
import { UserWorkflowsService } from './user-workflows.service';

/** Customers' runs of workflows: a conversation per step, generated in order by UserWorkflowRunner. */
@Module({
  imports: [
    TypeOrmModule.forFeature([UserWorkflow, UserWorkflowStep]),
    WorkflowsModule,
    ConversationsModule,
    MessagesModule,
    WordsModule,
    TemplatesModule,
  ],
  controllers: [UserWorkflowsController],
  providers: [UserWorkflowsService, UserWorkflowsRepository, UserWorkflowRunner],
})
export class UserWorkflowsModule {}
