import { Module } from '@nestjs/common';
import { AppConfigModule } from '../app-config/app-config.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { AiController } from './ai.controller';
import { AiService } from './ai.service';

/** The AI provider layer: key/model resolution, streaming completions, error mapping. */
@Module({
  imports: [AppConfigModule, OrganizationsModule],
  controllers: [AiController],
  providers: [AiService],
  exports: [AiService],
})
export class AiModule {}
