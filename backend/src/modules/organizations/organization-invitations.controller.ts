import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import {
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiGoneResponse } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { IdParam } from '../../common/http/id-param';
import {
  AcceptInvitationBody,
  InvitationAcceptedResponse,
  MyInvitationsResponse,
} from './dto/organization-invitation.dto';
import { OrganizationInvitationsService } from './organization-invitations.service';

@ApiTags('organizations')
@Controller('organization-invitations')
@Authenticated()
export class OrganizationInvitationsController {
  constructor(private readonly invitations: OrganizationInvitationsService) {}

  @Get()
  @ApiOperation({ summary: "The caller's pending invitations to organizations (sent to their email)" })
  @ApiOkResponse({ type: MyInvitationsResponse })
  async listMine(@CurrentUser() me: Principal): Promise<MyInvitationsResponse> {
    return { invitations: await this.invitations.listMine(me) };
  }

  @Post('accept')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Accept an invitation with the token from its email; the caller must be signed in with that email',
  })
  @ApiOkResponse({ type: InvitationAcceptedResponse })
  @ApiNotFoundResponse({ description: 'invitation_not_found: unknown, spent, or sent to another email' })
  @ApiGoneResponse({ description: 'invitation_expired' })
  accept(
    @CurrentUser() me: Principal,
    @Body() body: AcceptInvitationBody,
  ): Promise<InvitationAcceptedResponse> {
    return this.invitations.acceptByToken(me, body.token);
  }

  @Post(':id/accept')
  @HttpCode(200)
  @ApiOperation({ summary: 'Accept one of the caller’s pending invitations' })
  @ApiOkResponse({ type: InvitationAcceptedResponse })
  @ApiNotFoundResponse({ description: 'invitation_not_found' })
  @ApiGoneResponse({ description: 'invitation_expired' })
  acceptById(@CurrentUser() me: Principal, @IdParam('id') id: number): Promise<InvitationAcceptedResponse> {
    return this.invitations.acceptById(me, id);
  }

  @Post(':id/decline')
  @HttpCode(204)
  @ApiOperation({ summary: 'Decline one of the caller’s pending invitations' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: 'invitation_not_found' })
  @ApiGoneResponse({ description: 'invitation_expired' })
  async decline(@CurrentUser() me: Principal, @IdParam('id') id: number): Promise<void> {
    await this.invitations.decline(me, id);
  }
}
