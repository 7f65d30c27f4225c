import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AiModule } from '../ai/ai.module';
import { AvatarsModule } from '../avatars/avatars.module';
import { FilesModule } from '../files/files.module';
import { WordsModule } from '../words/words.module';
import { AvatarRefinementController } from './avatar-refinement.controller';
import { AvatarRefinementService } from './avatar-refinement.service';
import { Output } from './output.entity';
import { OutputsController } from './outputs.controller';
import { OutputsRepository } from './outputs.repository';
import { OutputsService } from './outputs.service';
import { TrainingJobService } from './training-job.service';
import { Training } from './training.entity';
import { TrainingsController } from './trainings.controller';
import { TrainingsRepository } from './trainings.repository';
import { TrainingsService } from './trainings.service';

/**
 * Trainings (the trainings table: datasets turned by a job into an avatar's knowledge and style guide) and
 * outputs (the outputs table: texts an avatar or a training writes, rated; the ratings refine a training). One
 * module because each needs the other: outputs are written with a training's guide, refinement reads ratings.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Training, Output]), AvatarsModule, FilesModule, AiModule, WordsModule],
  controllers: [TrainingsController, OutputsController, AvatarRefinementController],
  providers: [
    AvatarRefinementService,
    TrainingsService,
    TrainingsRepository,
    TrainingJobService,
    OutputsService,
    OutputsRepository,
  ],
})
export class TrainingsModule {}
