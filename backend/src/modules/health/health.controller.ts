import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Authenticated } from '../../common/auth/authenticated.decorator';
import { HealthService } from './health.service';

class QueueHealth {
  @ApiProperty({ enum: ['bullmq', 'in-process'] }) backend: string;
  @ApiProperty() waiting: number;
  @ApiProperty() active: number;
  @ApiProperty() failed: number;
  @ApiProperty() completed: number;
}

export class HealthReport {
  @ApiProperty({
    enum: ['up', 'degraded', 'down'],
    description:
      'up: all well; degraded: Redis is down (this instance still serves); down: the database is unreachable',
  })
  status: 'up' | 'degraded' | 'down';
  @ApiProperty({ enum: ['up', 'down'] }) database: 'up' | 'down';
  @ApiProperty({ enum: ['postgresql', 'embedded'] }) database_kind: 'postgresql' | 'embedded';
  @ApiProperty({ enum: ['up', 'down', 'not_configured'] }) redis: 'up' | 'down' | 'not_configured';
  @ApiProperty({ type: QueueHealth }) queue: QueueHealth;
  @ApiProperty() uptime_seconds: number;
}

export class Liveness {
  @ApiProperty({ enum: ['alive'] }) status: 'alive';
  @ApiProperty() uptime_seconds: number;
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @Authenticated({ public: true })
  @HttpCode(200)
  @ApiOkResponse({
    type: HealthReport,
    description:
      'Readiness: 200 when up or degraded (Redis down: HTTP and sockets on this instance still work), 503 with the same body when the database is down',
  })
  async check(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    const report = await this.health.report();
    if (report.status === 'down') res.status(503);
    return report;
  }

  @Get('live')
  @Authenticated({ public: true })
  @HttpCode(200)
  @ApiOkResponse({
    type: Liveness,
    description: 'Liveness: 200 while the process serves HTTP, whatever its dependencies',
  })
  live(): Liveness {
    return { status: 'alive', uptime_seconds: Math.round(process.uptime()) };
  }
}
