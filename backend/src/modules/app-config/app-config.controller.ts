import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { AsksCurrentPassword, CurrentPassword } from '../users/current-password';
import { isMasked } from '../../common/crypto/secret-box';
import { CONFIG_KEY_MAP } from './app-config.keys';
import { normalizeConfigValue } from './app-config.rules';
import { AppConfigService } from './app-config.service';
import { AdminConfigResponse, PublicConfigResponse, UpdateConfigDto } from './dto/app-config.dto';

@ApiTags('App config')
@Controller('appconfig')
export class AppConfigController {
  constructor(
    private readonly config: AppConfigService,
    private readonly password: CurrentPassword,
  ) {}

  @Get()
  @Authenticated({ public: true })
  @ApiOperation({ summary: 'Public app config (branding, switches); never contains secrets' })
  @ApiOkResponse({ type: PublicConfigResponse })
  async list(): Promise<PublicConfigResponse> {
    return { config: await this.config.listPublic() };
  }

  @Get('admin')
  @Authenticated({ permission: 'appconfig.edit' })
  @ApiOperation({ summary: 'Every key with its type and settings tab; secrets masked' })
  @ApiOkResponse({ type: AdminConfigResponse })
  async listAdmin(): Promise<AdminConfigResponse> {
    return { config: await this.config.listAdmin() };
  }

  @Put()
  @Authenticated({ permission: 'appconfig.edit' })
  @ApiOperation({
    summary: 'Change settings (all or nothing); a masked secret sent back keeps the stored one',
  })
  @ApiOkResponse({ type: AdminConfigResponse })
  @AsksCurrentPassword()
  @ApiForbiddenResponse({
    description: 'password_incorrect: a secret changes and the current password is wrong',
  })
  async update(@Body() body: UpdateConfigDto, @CurrentUser() user: Principal): Promise<AdminConfigResponse> {
    // Editing a secret (a masked one sent back is no edit) needs the current password typed again.
    const secretEdited = body.config.some(
      (c) => CONFIG_KEY_MAP.get(c.key)?.secret && !isMasked(normalizeConfigValue(c.value)),
    );
    if (secretEdited) await this.password.check(user.user_id, body.password);
    return { config: await this.config.update(body.config, user.user_id) };
  }
}
