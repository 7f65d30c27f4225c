import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TemplatesModule } from '../templates/templates.module';
import { Workflow, WorkflowTag, WorkflowTemplate } from './workflow.entity';
import { WorkflowsController } from './workflows.controller';
import { WorkflowsRepository } from './workflows.repository';
import { WorkflowsService } from './workflows.service';

/** Workflows: staff-authored, ordered chains of templates that customers run as user workflows. */
@Module({
  imports: [TypeOrmModule.forFeature([Workflow, WorkflowTemplate, WorkflowTag]), TemplatesModule],
  controllers: [WorkflowsController],
  providers: [WorkflowsService, WorkflowsRepository],
  exports: [WorkflowsService],
})
export class WorkflowsModule {}
