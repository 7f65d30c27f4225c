import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AiModule } from '../ai/ai.module';
import { FilesModule } from '../files/files.module';
import { WordsModule } from '../words/words.module';
import { AvatarChunk } from './avatar-chunk.entity';
import { AvatarFile } from './avatar-file.entity';
import { AvatarKnowledgeService } from './avatar-knowledge.service';
import { Avatar } from './avatar.entity';
import { AvatarsController } from './avatars.controller';
import { AvatarsRepository } from './avatars.repository';
import { AvatarsService } from './avatars.service';

/** Avatars, their knowledge files and passages (avatars, avatar_files, avatar_chunks), and retrieval. */
@Module({
  imports: [TypeOrmModule.forFeature([Avatar, AvatarFile, AvatarChunk]), FilesModule, AiModule, WordsModule],
  controllers: [AvatarsController],
  providers: [AvatarsService, AvatarsRepository, AvatarKnowledgeService],
  exports: [AvatarsService],
})
export class AvatarsModule {}
