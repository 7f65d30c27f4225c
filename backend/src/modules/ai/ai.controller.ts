import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { AiService } from './ai.service';
import { AiModelsResponse } from './dto/ai-models.dto';

@ApiTags('AI')
@Controller('ai')
export class AiController {
  constructor(private readonly ai: AiService) {}

  @Get('models')
  @Authenticated()
  @ApiOperation({
    summary: 'Models to choose from, the default, and whether any AI provider is configured',
    description: "With `?organization_id=`, the organization's own key counts too.",
  })
  @ApiOkResponse({ type: AiModelsResponse })
  models(@CurrentUser() user: Principal): Promise<AiModelsResponse> {
    // The guard has already checked membership of the `?organization_id=` scope.
    return this.ai.modelsStatus(user.org?.organization_id ?? null);
  }
}
