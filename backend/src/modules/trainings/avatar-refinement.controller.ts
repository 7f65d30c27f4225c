import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPreconditionFailedResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { PREMIUM_FEATURE } from '../avatars/avatar-rules';
import { AvatarResponse } from '../avatars/dto/avatar.dto';
import { AvatarRefinementService } from './avatar-refinement.service';
import { CombineAvatarsBody, RefineAvatarBody } from './dto/avatar-refinement.dto';

const NOT_VISIBLE = 'Missing, or an avatar (or training) the caller cannot see';

/** The avatar calls that read trainings and outputs; the avatars module's own calls are in AvatarsController. */
@ApiTags('avatars')
@Controller('avatars')
@Authenticated()
export class AvatarRefinementController {
  constructor(private readonly refinement: AvatarRefinementService) {}

  @Post('refine')
  @HttpCode(200)
  @ApiOperation({
    summary: "Improve the avatar's instructions (its context) from its rated outputs (answers when done)",
  })
  @ApiOkResponse({ type: AvatarResponse })
  @ApiBadRequestResponse({ description: 'No rated output yet' })
  @ApiForbiddenResponse({ description: 'Visible but not the caller’s' })
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  @ApiPreconditionFailedResponse({ description: PREMIUM_FEATURE })
  async refine(@CurrentUser() me: Principal, @Body() body: RefineAvatarBody): Promise<AvatarResponse> {
    return { avatar: await this.refinement.refine(me, body.avatar_id) };
  }

  @Post('combine')
  @ApiOperation({
    summary:
      "A new avatar from two of the caller's: both contexts, copies of both avatars' files and the style guide " +
      "of one of the target avatar's trainings",
  })
  @ApiCreatedResponse({ type: AvatarResponse })
  @ApiBadRequestResponse({
    description: "'You must add a name to your avatar.', or the training not executed",
  })
  @ApiForbiddenResponse({ description: 'Visible but not the caller’s' })
  @ApiNotFoundResponse({ description: NOT_VISIBLE })
  @ApiPreconditionFailedResponse({ description: PREMIUM_FEATURE })
  async combine(@CurrentUser() me: Principal, @Body() body: CombineAvatarsBody): Promise<AvatarResponse> {
    return { avatar: await this.refinement.combine(me, body) };
  }
}
