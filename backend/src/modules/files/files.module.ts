import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfigModule } from '../app-config/app-config.module';
import { StoredFile } from './file.entity';
import { FilesController } from './files.controller';
import { FilesRepository } from './files.repository';
import { FilesService } from './files.service';
import { StorageResolver } from './storage/storage.resolver';

@Module({
  imports: [TypeOrmModule.forFeature([StoredFile]), AppConfigModule],
  controllers: [FilesController],
  providers: [FilesService, FilesRepository, StorageResolver],
  exports: [FilesService, StorageResolver],
})
export class FilesModule {}
