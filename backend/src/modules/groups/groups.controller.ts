import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
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
import { IdParam } from '../../common/http/id-param';
import {
  CreateGroupBody,
  GroupListQuery,
  GroupPageResponse,
  GroupResponse,
  UpdateGroupBody,
} from './dto/group.dto';
import { GroupsService } from './groups.service';

const NOT_FOUND = 'Missing, or of an organization the caller is not in';
const MANAGERS = 'Only Managers and Admins of the organization manage its groups';

@ApiTags('groups')
@Controller('groups')
@Authenticated()
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  @Get('organization/:id')
  @ApiOperation({
    summary: "The organization's groups by name, with their user counts",
    description: '50 per page; query searches the name. Managers and Admins (and staff).',
  })
  @ApiOkResponse({ type: GroupPageResponse })
  @ApiForbiddenResponse({ description: MANAGERS })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  list(
    @CurrentUser() me: Principal,
    @IdParam('id') id: number,
    @Query() query: GroupListQuery,
  ): Promise<GroupPageResponse> {
    return this.groups.list(me, id, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One group with its users' })
  @ApiOkResponse({ type: GroupResponse })
  @ApiForbiddenResponse({ description: MANAGERS })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async get(@CurrentUser() me: Principal, @IdParam('id') id: number): Promise<GroupResponse> {
    return { group: await this.groups.get(me, id) };
  }

  @Post()
  @ApiOperation({ summary: 'Create a group in an organization' })
  @ApiCreatedResponse({ type: GroupResponse })
  @ApiBadRequestResponse({ description: "'Please add a name to your group'" })
  @ApiForbiddenResponse({ description: MANAGERS })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async create(@CurrentUser() me: Principal, @Body() body: CreateGroupBody): Promise<GroupResponse> {
    return { group: await this.groups.create(me, body) };
  }

  @Put()
  @ApiOperation({ summary: 'Rename a group' })
  @ApiOkResponse({ type: GroupResponse })
  @ApiForbiddenResponse({ description: MANAGERS })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async update(@CurrentUser() me: Principal, @Body() body: UpdateGroupBody): Promise<GroupResponse> {
    return { group: await this.groups.update(me, body) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a group (its campaign access goes with it)' })
  @ApiNoContentResponse()
  @ApiForbiddenResponse({ description: MANAGERS })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  remove(@CurrentUser() me: Principal, @IdParam('id') id: number): Promise<void> {
    return this.groups.remove(me, id);
  }

  @Post('users/:groupId/:userId')
  @ApiOperation({ summary: 'Add a member of the organization to the group (again: no change)' })
  @ApiCreatedResponse({ type: GroupResponse })
  @ApiBadRequestResponse({ description: "'That user is not a member of this organization.'" })
  @ApiForbiddenResponse({ description: MANAGERS })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async addUser(
    @CurrentUser() me: Principal,
    @IdParam('groupId') groupId: number,
    @IdParam('userId') userId: number,
  ): Promise<GroupResponse> {
    return { group: await this.groups.addUser(me, groupId, userId) };
  }

  @Delete('users/:groupId/:userId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Take a user out of the group' })
  @ApiNoContentResponse()
  @ApiForbiddenResponse({ description: MANAGERS })
  @ApiNotFoundResponse({ description: `${NOT_FOUND}, or the user is not in the group` })
  removeUser(
    @CurrentUser() me: Principal,
    @IdParam('groupId') groupId: number,
    @IdParam('userId') userId: number,
  ): Promise<void> {
    return this.groups.removeUser(me, groupId, userId);
  }
}
