import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { AppConfigService } from './app-config.service';
import { AdminConfigResponse, PublicConfigResponse, UpdateConfigDto } from './dto/app-config.dto';

@ApiTags('App config')
@Controller('appconfig')
export class AppConfigController {
  constructor(private readonly config: AppConfigService) {}

  @Get()
  @Authenticated({ public: true })
  @ApiOperation({ summary: 'Public app config (branding, switches); never contains secrets' })
  @ApiOkResponse({ type: PublicConfigResponse })
  async list(): Promise<PublicConfigResponse> {
    return { config: await this.config.listPublic() };
  }

  @Get('admin')
  @Authenticated({ staff: 'admin' })
  @ApiOperation({ summary: 'Every key with its type and settings tab; secrets masked' })
  @ApiOkResponse({ type: AdminConfigResponse })
  async listAdmin(): Promise<AdminConfigResponse> {
    return { config: await this.config.listAdmin() };
  }

  @Put()
  @Authenticated({ staff: 'admin' })
  @ApiOperation({
    summary: 'Change settings (all or nothing); a masked secret sent back keeps the stored one',
  })
  @ApiOkResponse({ type: AdminConfigResponse })
  async update(@Body() body: UpdateConfigDto, @CurrentUser() user: Principal): Promise<AdminConfigResponse> {
    return { config: await this.config.update(body.config, user.user_id) };
  }
}
