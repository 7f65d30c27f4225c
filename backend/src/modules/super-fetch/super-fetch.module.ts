import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfigModule } from '../app-config/app-config.module';
import { AvatarsModule } from '../avatars/avatars.module';
import { FilesModule } from '../files/files.module';
import { SuperFetchMessage } from './super-fetch-message.entity';
import { SuperFetchController } from './super-fetch.controller';
import { SuperFetchRepository } from './super-fetch.repository';
import { SuperFetchService } from './super-fetch.service';

/** Super Fetch: prompts built from a form, their outputs and the history (the super_fetch_messages table). */
@Module({
  imports: [TypeOrmModule.forFeature([SuperFetchMessage]), AppConfigModule, AvatarsModule, FilesModule],
  controllers: [SuperFetchController],
  providers: [SuperFetchService, SuperFetchRepository],
})
export class SuperFetchModule {}
