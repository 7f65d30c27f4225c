import { Global, Module } from '@nestjs/common';
import { AiModule } from '../ai/ai.module';
import { SearchModule } from '../search/search.module';
import { WordsModule } from '../words/words.module';
import { GenerationBus } from './generation-bus';
import { GenerationService } from './generation.service';

/**
 * The generation engine. Global, so that a module that ends what generations serve (a deletion, a sign-out)
 * can cancel them without importing the features that start them.
 */
@Global()
@Module({
  imports: [AiModule, WordsModule, SearchModule],
  providers: [GenerationService, GenerationBus],
  exports: [GenerationService],
})
export class GenerationModule {}
