import { Injectable } from '@nestjs/common';
import {
  CAMPAIGN_MESSAGES,
  MAX_CAMPAIGN_GRANTS,
  MAX_CAMPAIGN_RESOURCES,
  type CampaignResourceType,
} from '@avatar-studio/contracts';
import type { Principal } from '../../common/auth/principal';
import { UnitOfWork } from '../../database/unit-of-work';
import { badInput, conflict, forbidden, notFound } from '../../common/errors/domain-error';
import { likePattern, toPage } from '../../common/http/pagination';
import { DocumentsService } from '../documents/documents.service';
import type { DocumentDto } from '../documents/dto/document.dto';
import { FilesService, toDto as fileDto } from '../files/files.service';
import type { UploadedBlob } from '../files/upload.interceptor';
import { GroupsService } from '../groups/groups.service';
import { AccessPolicy, type Standing as OrgActor } from '../organizations/access-policy';
import type { TemplateDto } from '../templates/dto/template.dto';
import { TemplatesService } from '../templates/templates.service';
import { UsersService } from '../users/users.service';
import type { Campaign } from './campaign.entity';
import { CampaignsRepository, type CampaignFields, type CampaignViewer } from './campaigns.repository';
import type {
  CampaignAccessBody,
  CampaignDetailDto,
  CampaignDocumentResponse,
  CampaignDto,
  CampaignListQuery,
  CampaignPageResponse,
  CampaignResourceBody,
  CampaignResourceItem,
  CampaignResourceLinkResponse,
  CampaignResourcesQuery,
  CampaignResourcesResponse,
  CreateCampaignBody,
  UpdateCampaignBody,
} from './dto/campaign.dto';

const PAGE_SIZE = 24;

const campaignNotFound = () => notFound('Campaign', 'campaign_not_found');

/** An actor with the viewer it makes: whose campaigns they see in the organization. */
interface Standing {
  actor: OrgActor;
  viewer: CampaignViewer;
}

/**
 * Campaigns of an organization. Who sees one: an Admin (and staff) every campaign, a Manager those they own or
 * were given, a Member those given to them or to one of their groups; anyone else (or another organization's
 * member) gets 404. Managers and Admins (and staff managers) create, edit, delete, give and add resources, on
 * campaigns they see. A campaign's documents and templates are read through it under the same rule.
 */
@Injectable()
export class CampaignsService {
  constructor(
    private readonly repository: CampaignsRepository,
    private readonly access: AccessPolicy,
    private readonly groups: GroupsService,
    private readonly users: UsersService,
    private readonly files: FilesService,
    private readonly documents: DocumentsService,
    private readonly templates: TemplatesService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async list(me: Principal, organizationId: number, query: CampaignListQuery): Promise<CampaignPageResponse> {
    const { viewer } = await this.standing(me, organizationId);
    const page = toPage(query, PAGE_SIZE);
    const text = query.query?.trim();
    const { rows, total } = await this.repository.page(
      organizationId,
      viewer,
      text ? likePattern(text) : null,
      query.sortBy ?? 'createdAt_desc',
      page,
    );
    return { campaigns: await this.withOwners(rows), total, page: page.page, limit: page.limit };
  }

  async get(me: Principal, campaignId: number): Promise<CampaignDetailDto> {
    const { campaign, actor } = await this.load(me, campaignId);
    return this.detail(campaign, this.access.allows(actor, 'campaigns.manage'));
  }

  async create(
    me: Principal,
    body: CreateCampaignBody,
    thumbnail?: UploadedBlob,
  ): Promise<CampaignDetailDto> {
    const organizationId = body.organization_id ?? me.org?.organization_id;
    if (!organizationId) throw badInput(CAMPAIGN_MESSAGES.selectOrganization, 'organization_required');
    const { actor } = await this.standing(me, organizationId);
    if (!this.access.allows(actor, 'campaigns.manage')) throw forbidden();
    const campaign = await this.repository.insert({
      organization_id: organizationId,
      user_id: me.user_id,
      name: body.name,
      description: body.description ?? '',
      thumbnail: thumbnail ? await this.storeThumbnail(me, thumbnail) : null,
    });
    return this.detail(campaign, true);
  }

  async update(
    me: Principal,
    body: UpdateCampaignBody,
    thumbnail?: UploadedBlob,
  ): Promise<CampaignDetailDto> {
    const { campaign } = await this.loadToManage(me, body.campaign_id);
    const changes: Partial<CampaignFields> = {};
    if (body.name !== undefined) changes.name = body.name;
    if (body.description !== undefined) changes.description = body.description;
    if (thumbnail) changes.thumbnail = await this.storeThumbnail(me, thumbnail);
    else if (body.remove_thumbnail === '') changes.thumbnail = null;
    if (Object.keys(changes).length) await this.repository.update(campaign.campaign_id, changes);
    const updated = await this.repository.findById(campaign.campaign_id);
    if (!updated) throw campaignNotFound();
    return this.detail(updated, true);
  }

  async remove(me: Principal, campaignId: number): Promise<void> {
    const { campaign } = await this.loadToManage(me, campaignId);
    await this.repository.delete(campaign.campaign_id);
  }

  // ------------------------------------------------------------ resources

  async resources(
    me: Principal,
    campaignId: number,
    query: CampaignResourcesQuery,
  ): Promise<CampaignResourcesResponse> {
    const { campaign } = await this.load(me, campaignId);
    const type: CampaignResourceType = query.resources === 'templates' ? 'template' : 'document';
    const ids = await this.repository.resourceIds(campaign.campaign_id, type, MAX_CAMPAIGN_RESOURCES);
    const text = query.query?.trim() || null;
    const base = { campaign_id: campaign.campaign_id, type };
    const resources: CampaignResourceItem[] =
      type === 'document'
        ? (await this.documents.summaries(ids, text)).map((document) => ({
            ...base,
            resource_id: document.document_id,
            document,
          }))
        : (await this.templates.summaries(ids, text)).map((template) => ({
            ...base,
            resource_id: template.template_id,
            template,
          }));
    return { resources, total: resources.length };
  }

  /**
   * Puts one of the caller's documents in the campaign's organization, or a template they can read there, in
   * the campaign. `strict`: answer 409 when it is already there (POST); otherwise adding it again is no change (PUT).
   */
  async addResource(
    me: Principal,
    body: CampaignResourceBody,
    strict: boolean,
  ): Promise<CampaignResourceLinkResponse> {
    if (!body.campaign_id) throw badInput(CAMPAIGN_MESSAGES.selectCampaign, 'campaign_required');
    const { campaign, actor } = await this.loadToManage(me, body.campaign_id);
    const inOrganization = scopedTo(me, actor, campaign.organization_id);
    if (body.type === 'document') await this.documents.get(inOrganization, body.resource_id);
    else await this.templates.get(inOrganization, body.resource_id);
    await this.unitOfWork.run(async (m) => {
      if (!(await this.repository.lock(campaign.campaign_id, m))) throw campaignNotFound();
      if (await this.repository.hasResource(campaign.campaign_id, body.type, body.resource_id, m)) {
        if (strict) throw conflict('That resource is already in the campaign.', 'already_exists');
        return;
      }
      if ((await this.repository.countResources(campaign.campaign_id, m)) >= MAX_CAMPAIGN_RESOURCES) {
        throw conflict(CAMPAIGN_MESSAGES.tooManyResources, 'too_many_resources');
      }
      await this.repository.addResource(campaign.campaign_id, body.type, body.resource_id, m);
      await this.repository.touch(campaign.campaign_id, m);
    });
    return { campaign_id: campaign.campaign_id, resource_id: body.resource_id, type: body.type };
  }

  async removeResource(
    me: Principal,
    type: CampaignResourceType,
    resourceId: number,
    campaignId: number,
  ): Promise<void> {
    const { campaign } = await this.loadToManage(me, campaignId);
    if (!(await this.repository.removeResource(campaign.campaign_id, type, resourceId))) {
      throw notFound('Campaign resource', 'not_found');
    }
    await this.repository.touch(campaign.campaign_id);
  }

  /** A document of a campaign the caller sees, whoever made it. */
  async document(me: Principal, campaignId: number, documentId: number): Promise<DocumentDto> {
    const { campaign } = await this.load(me, campaignId);
    if (!(await this.repository.hasResource(campaign.campaign_id, 'document', documentId))) {
      throw notFound('Document', 'document_not_found');
    }
    return this.documents.getForCampaign(documentId);
  }

  /**
   * A document opened through a campaign the caller sees: readable by all of them, changeable (by the usual
   * document calls) only by its maker in the document's own scope.
   */
  async openDocument(
    me: Principal,
    campaignId: number,
    documentId: number,
  ): Promise<CampaignDocumentResponse> {
    const { campaign } = await this.load(me, campaignId);
    if (!(await this.repository.hasResource(campaign.campaign_id, 'document', documentId))) {
      throw notFound('Document', 'document_not_found');
    }
    const document = await this.documents.getForCampaign(documentId);
    return {
      document,
      campaign: {
        campaign_id: campaign.campaign_id,
        name: campaign.name,
        organization_id: campaign.organization_id,
      },
      editable:
        document.user_id === me.user_id && document.organization_id === (me.org?.organization_id ?? null),
    };
  }

  /** A template of a campaign the caller sees, as the campaign's organization shows it. */
  async template(me: Principal, campaignId: number, templateId: number): Promise<TemplateDto> {
    const { campaign, actor } = await this.load(me, campaignId);
    if (!(await this.repository.hasResource(campaign.campaign_id, 'template', templateId))) {
      throw notFound('Template', 'template_not_found');
    }
    return this.templates.get(scopedTo(me, actor, campaign.organization_id), templateId);
  }

  // ------------------------------------------------------------ access

  async giveAccess(me: Principal, campaignId: number, body: CampaignAccessBody): Promise<CampaignDetailDto> {
    const to = grantee(body);
    const { campaign } = await this.loadToManage(me, campaignId);
    if ('user_id' in to) {
      if (!(await this.access.isMember(campaign.organization_id, to.user_id))) {
        throw badInput(CAMPAIGN_MESSAGES.notAMember, 'not_organization_member');
      }
    } else if (!(await this.groups.findInOrganization(to.group_id, campaign.organization_id))) {
      throw notFound('Group', 'group_not_found');
    }
    await this.unitOfWork.run(async (m) => {
      if (!(await this.repository.lock(campaign.campaign_id, m))) throw campaignNotFound();
      if ((await this.repository.countGrants(campaign.campaign_id, m)) >= MAX_CAMPAIGN_GRANTS) {
        throw conflict(CAMPAIGN_MESSAGES.tooManyGrants, 'too_many_grants');
      }
      await this.repository.grant(campaign.campaign_id, to, m);
    });
    return this.detail(campaign, true);
  }

  async revokeAccess(
    me: Principal,
    campaignId: number,
    body: CampaignAccessBody,
  ): Promise<CampaignDetailDto> {
    const from = grantee(body);
    const { campaign } = await this.loadToManage(me, campaignId);
    if (!(await this.repository.revoke(campaign.campaign_id, from))) {
      throw notFound('user_id' in from ? 'Campaign user' : 'Campaign group', 'not_found');
    }
    return this.detail(campaign, true);
  }

  /** The organization's campaigns given to the user, directly or through a group (a membership's campaigns_access). */
  async accessOf(userId: number, organizationId: number): Promise<{ campaign_id: number }[]> {
    const groupIds = await this.groups.groupIdsOf(userId, organizationId);
    const ids = await this.repository.grantedTo(organizationId, userId, groupIds);
    return ids.map((campaign_id) => ({ campaign_id }));
  }

  // ------------------------------------------------------------ helpers

  /** The caller's standing in the organization (404 when not a member nor staff) and what they see there. */
  private async standing(me: Principal, organizationId: number): Promise<Standing> {
    const actor = await this.access.standing(me, { organization_id: organizationId });
    const all = this.access.allows(actor, 'campaigns.viewAll');
    return {
      actor,
      viewer: {
        user_id: me.user_id,
        all,
        owned: this.access.allows(actor, 'campaigns.manage'),
        groupIds: all ? [] : await this.groups.groupIdsOf(me.user_id, organizationId),
      },
    };
  }

  /** The campaign when the caller sees it; 404 otherwise (also for another organization's). */
  private async load(me: Principal, campaignId: number): Promise<{ campaign: Campaign; actor: OrgActor }> {
    const found = await this.repository.findById(campaignId);
    if (!found) throw campaignNotFound();
    let standing: Standing;
    try {
      standing = await this.standing(me, found.organization_id);
    } catch {
      throw campaignNotFound();
    }
    const campaign = await this.repository.findVisible(campaignId, standing.viewer);
    if (!campaign) throw campaignNotFound();
    return { campaign, actor: standing.actor };
  }

  /** As `load`, and 403 unless the caller manages campaigns. */
  private async loadToManage(
    me: Principal,
    campaignId: number,
  ): Promise<{ campaign: Campaign; actor: OrgActor }> {
    const loaded = await this.load(me, campaignId);
    if (!this.access.allows(loaded.actor, 'campaigns.manage')) throw forbidden();
    return loaded;
  }

  private async storeThumbnail(me: Principal, upload: UploadedBlob): Promise<string> {
    return fileDto(await this.files.store(me.user_id, upload.originalname, upload.buffer, ['image'])).src;
  }

  private async withOwners(rows: Campaign[]): Promise<CampaignDto[]> {
    const owners = await this.users.summaries(rows.flatMap((c) => (c.user_id ? [c.user_id] : [])));
    return rows.map((c) => {
      const owner = c.user_id ? owners.get(c.user_id) : undefined;
      return {
        ...c,
        user: owner ? { user_id: owner.user_id, name: owner.name, last_name: owner.last_name } : null,
      };
    });
  }

  /** The campaign with its owner; who it is given to only for those who manage it. */
  private async detail(campaign: Campaign, withGrants: boolean): Promise<CampaignDetailDto> {
    const [dto] = await this.withOwners([campaign]);
    if (!withGrants) return { ...dto, campaign_users: [], campaign_groups: [] };
    const [userIds, groupIds] = await Promise.all([
      this.repository.userIds(campaign.campaign_id),
      this.repository.groupIds(campaign.campaign_id),
    ]);
    const [people, groups] = await Promise.all([
      this.users.summaries(userIds),
      this.groups.summaries(groupIds),
    ]);
    return {
      ...dto,
      campaign_users: userIds.flatMap((id) => {
        const u = people.get(id);
        return u ? [{ user_id: u.user_id, name: u.name, last_name: u.last_name, email: u.email }] : [];
      }),
      campaign_groups: groupIds.flatMap((id) => {
        const g = groups.get(id);
        return g ? [g] : [];
      }),
    };
  }
}

/** Exactly one of user_id and group_id. */
function grantee(body: CampaignAccessBody): { user_id: number } | { group_id: number } {
  if ((body.user_id === undefined) === (body.group_id === undefined)) {
    throw badInput(CAMPAIGN_MESSAGES.userOrGroup, 'bad_input');
  }
  return body.user_id !== undefined ? { user_id: body.user_id } : { group_id: body.group_id as number };
}

/** The caller as seen in the campaign's organization, so documents and templates are checked in that scope. */
function scopedTo(me: Principal, actor: OrgActor, organizationId: number): Principal {
  return {
    ...me,
    org: {
      organization_id: organizationId,
      role: actor.orgRole ?? 'Member',
      member: actor.membership !== null,
    },
  };
}
