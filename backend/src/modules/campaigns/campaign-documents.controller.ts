import { Controller, Get } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import { IdParam } from '../../common/http/id-param';
import { CampaignsService } from './campaigns.service';
import { CampaignDocumentResponse } from './dto/campaign.dto';

/**
 * A document opened through a campaign, at the documents path the editor's route mirrors. It lives in the
 * campaigns module because who may read it is the campaign's visibility (documents know nothing of campaigns).
 */
@ApiTags('documents')
@Controller('documents')
@Authenticated()
export class CampaignDocumentsController {
  constructor(private readonly campaigns: CampaignsService) {}

  @Get(':document_id/campaigns/:campaign_id')
  @ApiOperation({
    summary: 'A document of a campaign the caller sees, whoever made it',
    description:
      'A Member sees campaigns given to them or one of their groups, a Manager also those they own, an Admin ' +
      '(and staff) all of the organization. `editable` says whether the caller may also change it.',
  })
  @ApiOkResponse({ type: CampaignDocumentResponse })
  @ApiNotFoundResponse({
    description:
      'The campaign is missing, of another organization or not visible to the caller, or the document is not in it',
  })
  get(
    @CurrentUser() me: Principal,
    @IdParam('document_id') documentId: number,
    @IdParam('campaign_id') campaignId: number,
  ): Promise<CampaignDocumentResponse> {
    return this.campaigns.openDocument(me, campaignId, documentId);
  }
}
