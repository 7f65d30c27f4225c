import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GeneratedIdea } from './generated-idea.entity';
import { HashtagsController, TopicsController } from './ideas.controller';
import { IdeasRepository } from './ideas.repository';
import { IdeasService } from './ideas.service';

/** Topic and hashtag generators and their history (the generated_ideas table). */
@Module({
  imports: [TypeOrmModule.forFeature([GeneratedIdea])],
  controllers: [TopicsController, HashtagsController],
  providers: [IdeasService, IdeasRepository],
})
export class TopicsModule {}
