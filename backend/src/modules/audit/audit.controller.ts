import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../../common/auth/authenticated.decorator';
import { AuditService } from './audit.service';
import { AuditEventsPageResponse, AuditEventsQuery } from './dto/audit.dto';

@ApiTags('Audit')
@Controller('audit-events')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @Authenticated({ permission: 'audit.view' })
  @ApiOperation({
    summary: 'The audit log of staff actions, newest first (staff admins)',
    description:
      'Filters combine with AND: actor_user_id, target_user_id, action, from (inclusive), to (exclusive). ' +
      'Pages of 50 by default, at most 100.',
  })
  @ApiOkResponse({ type: AuditEventsPageResponse })
  @ApiBadRequestResponse({ description: 'A bad filter, or from after to (invalid_date_range)' })
  list(@Query() query: AuditEventsQuery): Promise<AuditEventsPageResponse> {
    return this.audit.list(query);
  }
}
