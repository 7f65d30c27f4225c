import { Module } from '@nestjs/common';
import { AppConfigModule } from '../app-config/app-config.module';
import { SearchService } from './search.service';

/** Web search (SearXNG) for answers that ask for it. */
@Module({
  imports: [AppConfigModule],
  providers: [SearchService],
  exports: [SearchService],
})
export class SearchModule {}
