import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiKeyResponseDto, UserResponseDto } from './dto/public-user.dto';
import { UpdateUserDto } from './dto/update-user.dto';
import { AsksCurrentPassword } from './current-password';
import { CreateApiKeyDto, CurrentPasswordDto } from './dto/reauth.dto';
import { EmailLookupQuery, PhoneLookupQuery } from './dto/user-queries.dto';
import { DefaultAvatarService } from './default-avatar.service';
import { UsersService } from './users.service';

@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly defaultAvatar: DefaultAvatarService,
  ) {}

  @Get()
  @Authenticated({ twoFactorEnrolment: true })
  @ApiOperation({ summary: 'The signed-in user' })
  @ApiOkResponse({ type: UserResponseDto })
  async me(@CurrentUser() me: Principal): Promise<UserResponseDto> {
    return { user: await this.users.toPublicUser(me.user_id) };
  }

  @Post('resetDefaultAvatar')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Replaces the default avatar (the Super Fetch assistant) with a fresh one; the old one is deleted with ' +
      'its history and learning',
  })
  @ApiOkResponse({ type: UserResponseDto })
  async resetDefaultAvatar(@CurrentUser() me: Principal): Promise<UserResponseDto> {
    await this.defaultAvatar.reset(me.user_id);
    return { user: await this.users.toPublicUser(me.user_id) };
  }

  @Put()
  @Authenticated()
  @ApiOperation({ summary: "Saves the signed-in user's profile and settings" })
  @ApiOkResponse({ type: UserResponseDto })
  @ApiNotFoundResponse({ description: 'default_organization is not one of the user’s organizations' })
  async update(@CurrentUser() me: Principal, @Body() body: UpdateUserDto): Promise<UserResponseDto> {
    return { user: await this.users.updateOwn(me.user_id, body) };
  }

  @Delete()
  @Authenticated()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Deletes the signed-in user’s own account (current password required); its sessions end at once',
  })
  @ApiNoContentResponse()
  @ApiConflictResponse({
    description: 'The caller is the only staff admin; subscription_renewing: cancel the subscription first',
  })
  @ApiForbiddenResponse({ description: 'password_incorrect' })
  @AsksCurrentPassword()
  async remove(@CurrentUser() me: Principal, @Body() body: CurrentPasswordDto): Promise<void> {
    await this.users.deleteOwn(me, body.password);
  }

  @Post('api-key')
  @Authenticated()
  @ApiOperation({
    summary:
      'Creates a personal API key (replacing any previous one; current password required); shown once. It expires after the days chosen; only staff may make a staff key.',
  })
  @ApiCreatedResponse({ type: ApiKeyResponseDto })
  @ApiForbiddenResponse({ description: 'password_incorrect, staff_key_not_allowed' })
  @AsksCurrentPassword()
  async createApiKey(
    @CurrentUser() me: Principal,
    @Body() body: CreateApiKeyDto,
  ): Promise<ApiKeyResponseDto> {
    return this.users.createApiKey(me, body);
  }

  @Delete('api-key')
  @Authenticated()
  @HttpCode(204)
  @ApiOperation({ summary: 'Revokes the personal API key' })
  @ApiNoContentResponse()
  async revokeApiKey(@CurrentUser() me: Principal): Promise<void> {
    await this.users.revokeApiKey(me);
  }

  @Get('email')
  @Authenticated({ permission: 'users.support' })
  @ApiOperation({ summary: 'Staff: finds a user by email' })
  @ApiOkResponse({ type: UserResponseDto })
  @ApiNotFoundResponse({ description: 'No account with that email' })
  async byEmail(@Query() query: EmailLookupQuery): Promise<UserResponseDto> {
    return { user: await this.users.lookupByEmail(query.email) };
  }

  @Get('phone')
  @Authenticated({ permission: 'users.support' })
  @ApiOperation({ summary: 'Staff: finds a user by phone' })
  @ApiOkResponse({ type: UserResponseDto })
  @ApiNotFoundResponse({ description: "We're sorry, we couldn't find an account with that number." })
  async byPhone(@Query() query: PhoneLookupQuery): Promise<UserResponseDto> {
    return { user: await this.users.lookupByPhone(query.phone) };
  }
}
