import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
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
import {
  AllOrganizationsQuery,
  AllOrganizationsResponse,
  CreateOrganizationBody,
  DeleteOrganizationQuery,
  MyOrganizationsQuery,
  MyOrganizationsResponse,
  OrganizationLookupQuery,
  OrganizationResponse,
  OrganizationUsersQuery,
  OrganizationUsersResponse,
  PublicOrganizationResponse,
  UpdateOrganizationBody,
} from './dto/organization.dto';
import {
  CreateUserOrganizationBody,
  UpdateUserOrganizationBody,
  UserOrganizationResponse,
} from './dto/user-organization.dto';
import { InvitationSentResponse } from './dto/organization-invitation.dto';
import { OrganizationsService } from './organizations.service';
import { UserOrganizationsService } from './user-organizations.service';
import { IdParam } from '../../common/http/id-param';

@ApiTags('organizations')
@Controller('organizations')
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Get()
  @Authenticated()
  @ApiOperation({ summary: "The caller's organizations (memberships), searchable by name" })
  @ApiOkResponse({ type: MyOrganizationsResponse })
  listMine(
    @CurrentUser() user: Principal,
    @Query() query: MyOrganizationsQuery,
  ): Promise<MyOrganizationsResponse> {
    return this.organizations.listMine(user, query.query);
  }

  @Get('admin/all')
  @Authenticated({ permission: 'organization.listAll' })
  @ApiOperation({ summary: 'Every organization, paged (staff)' })
  @ApiOkResponse({ type: AllOrganizationsResponse })
  listAll(
    @CurrentUser() user: Principal,
    @Query() query: AllOrganizationsQuery,
  ): Promise<AllOrganizationsResponse> {
    return this.organizations.listAll(user, query);
  }

  @Get('lookup')
  @Authenticated({ public: true })
  @ApiOperation({ summary: 'Find an organization by slug or domain (organization choice order, first step)' })
  @ApiOkResponse({ type: PublicOrganizationResponse })
  @ApiNotFoundResponse({ description: 'No organization has that slug or domain' })
  lookup(@Query() query: OrganizationLookupQuery): Promise<PublicOrganizationResponse> {
    return this.organizations.lookup(query);
  }

  @Get(':id')
  @Authenticated()
  @ApiOperation({ summary: 'One organization with its settings (secrets masked); members and staff' })
  @ApiOkResponse({ type: OrganizationResponse })
  @ApiNotFoundResponse({ description: 'Missing, or the caller is not a member' })
  get(@CurrentUser() user: Principal, @IdParam('id') id: number): Promise<OrganizationResponse> {
    return this.organizations.get(user, id);
  }

  @Post()
  @Authenticated({ permission: 'organization.create' })
  @ApiOperation({ summary: 'Create an organization (staff); the creator becomes its Admin' })
  @ApiCreatedResponse({ type: OrganizationResponse })
  @ApiBadRequestResponse({ description: "'Please add a name to your organization' and other field errors" })
  @ApiConflictResponse({ description: 'That domain is already used by another organization.' })
  create(
    @CurrentUser() user: Principal,
    @Body() body: CreateOrganizationBody,
  ): Promise<OrganizationResponse> {
    return this.organizations.create(user, body);
  }

  @Put()
  @Authenticated()
  @ApiOperation({ summary: 'Save the organization settings (its Admin, or staff admin)' })
  @ApiOkResponse({ type: OrganizationResponse })
  @ApiForbiddenResponse({ description: 'Not an Admin of the organization' })
  @ApiNotFoundResponse({ description: 'Missing, or the caller is not a member' })
  @ApiConflictResponse({ description: 'That domain is already used by another organization.' })
  update(
    @CurrentUser() user: Principal,
    @Body() body: UpdateOrganizationBody,
  ): Promise<OrganizationResponse> {
    return this.organizations.update(user, body);
  }

  @Delete(':id')
  @Authenticated()
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete the organization (its Admin, or staff admin); `name` must match exactly' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiBadRequestResponse({
    description: "code name_mismatch: 'Organization name does not match. Deletion aborted.'",
  })
  @ApiForbiddenResponse({ description: 'Not an Admin of the organization' })
  @ApiNotFoundResponse({ description: 'Missing, or the caller is not a member' })
  remove(
    @CurrentUser() user: Principal,
    @IdParam('id') id: number,
    @Query() query: DeleteOrganizationQuery,
  ): Promise<void> {
    return this.organizations.remove(user, id, query.name);
  }

  @Get(':id/users')
  @Authenticated()
  @ApiOperation({ summary: 'The members with usage in a date range (Manager or Admin of it, or staff)' })
  @ApiOkResponse({ type: OrganizationUsersResponse })
  @ApiForbiddenResponse({ description: 'A Member' })
  @ApiNotFoundResponse({ description: 'Missing, or the caller is not a member' })
  listUsers(
    @CurrentUser() user: Principal,
    @IdParam('id') id: number,
    @Query() query: OrganizationUsersQuery,
  ): Promise<OrganizationUsersResponse> {
    return this.organizations.listUsers(user, id, query);
  }
}

@ApiTags('organizations')
@Controller('user-organizations')
export class UserOrganizationsController {
  constructor(private readonly memberships: UserOrganizationsService) {}

  @Post()
  @Authenticated()
  @ApiOperation({
    summary: 'Invite a person to an organization by email (its Admin, or staff admin)',
    description:
      'Sends an invitation the person accepts signed in with that email; the answer is the same whether or not ' +
      'the email has an account. A new email also gets an account and a password recovery email.',
  })
  @ApiCreatedResponse({ type: InvitationSentResponse })
  @ApiConflictResponse({ description: 'code already_member' })
  @ApiForbiddenResponse({ description: 'Not an Admin of the organization' })
  add(
    @CurrentUser() user: Principal,
    @Body() body: CreateUserOrganizationBody,
  ): Promise<InvitationSentResponse> {
    return this.memberships.add(user, body);
  }

  @Put()
  @Authenticated()
  @ApiOperation({ summary: "Change a member's role (its Admin, or staff admin); never their profile" })
  @ApiOkResponse({ type: UserOrganizationResponse })
  @ApiConflictResponse({ description: 'code last_admin: the organization must keep at least one Admin' })
  @ApiForbiddenResponse({ description: 'Not an Admin of the organization' })
  @ApiNotFoundResponse({ description: 'Missing, or not in an organization of the caller' })
  update(
    @CurrentUser() user: Principal,
    @Body() body: UpdateUserOrganizationBody,
  ): Promise<UserOrganizationResponse> {
    return this.memberships.update(user, body);
  }

  @Get(':id')
  @Authenticated()
  @ApiOperation({ summary: 'One membership (Manager or Admin of its organization, staff, or the member)' })
  @ApiOkResponse({ type: UserOrganizationResponse })
  @ApiNotFoundResponse({ description: 'Missing, or not in an organization of the caller' })
  get(@CurrentUser() user: Principal, @IdParam('id') id: number): Promise<UserOrganizationResponse> {
    return this.memberships.get(user, id);
  }

  @Delete(':id')
  @Authenticated()
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a member (its Admin, or staff admin) or leave (the member)' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiConflictResponse({ description: 'code last_admin: the organization must keep at least one Admin' })
  @ApiNotFoundResponse({ description: 'Missing, or not in an organization of the caller' })
  remove(@CurrentUser() user: Principal, @IdParam('id') id: number): Promise<void> {
    return this.memberships.remove(user, id);
  }
}
