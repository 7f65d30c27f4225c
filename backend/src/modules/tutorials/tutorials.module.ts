import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Tutorial, TutorialPlay } from './tutorial.entity';
import { TutorialsController } from './tutorials.controller';
import { TutorialsRepository } from './tutorials.repository';
import { TutorialsService } from './tutorials.service';

/** Tutorial videos by language, managed by staff, and their plays (tables tutorials, tutorial_plays). */
@Module({
  imports: [TypeOrmModule.forFeature([Tutorial, TutorialPlay])],
  controllers: [TutorialsController],
  providers: [TutorialsService, TutorialsRepository],
  exports: [TutorialsService],
})
export class TutorialsModule {}
