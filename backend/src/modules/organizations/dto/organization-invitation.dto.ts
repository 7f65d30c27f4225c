import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class AcceptInvitationBody {
  @ApiProperty({ description: 'The token from the invitation email' })
  @IsString({ message: 'token is required.' })
  @IsNotEmpty({ message: 'token is required.' })
  @MaxLength(200, { message: 'token is not valid.' })
  token: string;
}

/** What the inviter is told: the same whether or not the email already has an account. */
export class InvitationSentView {
  @ApiProperty() invitation_id: number;
  @ApiProperty() organization_id: number;
  @ApiProperty() email: string;
  @ApiProperty({ enum: [1, 2, 3], description: '1 Admin, 2 Manager, 3 Member' }) user_type_id: number;
  @ApiProperty() expires_at: Date;
}

export class InvitationSentResponse {
  @ApiProperty({ type: InvitationSentView }) invitation: InvitationSentView;
}

/** A pending invitation as its invitee sees it. */
export class MyInvitationView {
  @ApiProperty() invitation_id: number;
  @ApiProperty() organization_id: number;
  @ApiProperty() organization_name: string;
  @ApiProperty({ enum: [1, 2, 3], description: '1 Admin, 2 Manager, 3 Member' }) user_type_id: number;
  @ApiProperty({ enum: ['Admin', 'Manager', 'Member'] }) role: string;
  @ApiProperty({ type: String, nullable: true, description: "The inviter's name" }) invited_by: string | null;
  @ApiProperty() expires_at: Date;
  @ApiProperty() createdAt: Date;
}

export class MyInvitationsResponse {
  @ApiProperty({ type: [MyInvitationView] }) invitations: MyInvitationView[];
}

export class InvitationAcceptedResponse {
  @ApiProperty() organization_id: number;
  @ApiProperty() user_organization_id: number;
  @ApiProperty({ enum: [1, 2, 3], description: 'The role held now (an existing membership keeps its own)' })
  user_type_id: number;
}
