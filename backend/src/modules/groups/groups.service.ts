import { Injectable } from '@nestjs/common';
import { CAMPAIGN_MESSAGES, MAX_GROUP_USERS, can } from '@avatar-studio/contracts';
import type { Principal } from '../../common/auth/principal';
import { UnitOfWork } from '../../database/unit-of-work';
import { badInput, conflict, forbidden, notFound } from '../../common/errors/domain-error';
import { likePattern, toPage } from '../../common/http/pagination';
import { AccessPolicy, type Standing as OrgActor } from '../organizations/access-policy';
import { UsersService } from '../users/users.service';
import type { Group } from './group.entity';
import type {
  CreateGroupBody,
  GroupDetailDto,
  GroupListQuery,
  GroupPageResponse,
  UpdateGroupBody,
} from './dto/group.dto';
import { GroupsRepository } from './groups.repository';

const PAGE_SIZE = 50;

const groupNotFound = () => notFound('Group', 'group_not_found');

/** Managers and Admins of the organization manage its groups; staff may look at them. */
function canView(actor: OrgActor): boolean {
  return can(actor, 'groups.manage') || can(actor, 'backoffice.view');
}

/**
 * Groups of an organization's users. A group belongs to one organization; only that organization's members are
 * added to it, and a group seen from outside its organization is 404.
 */
@Injectable()
export class GroupsService {
  constructor(
    private readonly repository: GroupsRepository,
    private readonly access: AccessPolicy,
    private readonly users: UsersService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async list(me: Principal, organizationId: number, query: GroupListQuery): Promise<GroupPageResponse> {
    const actor = await this.access.standing(me, { organization_id: organizationId });
    if (!canView(actor)) throw forbidden();
    const page = toPage(query, PAGE_SIZE);
    const text = query.query?.trim();
    const { rows, total } = await this.repository.page(organizationId, text ? likePattern(text) : null, page);
    return { groups: rows, total, page: page.page, limit: page.limit };
  }

  async get(me: Principal, groupId: number): Promise<GroupDetailDto> {
    const group = await this.load(me, groupId, canView);
    return this.detail(group);
  }

  async create(me: Principal, body: CreateGroupBody): Promise<GroupDetailDto> {
    this.access.demandAllowed(
      await this.access.standing(me, { organization_id: body.organization_id }),
      'groups.manage',
    );
    const group = await this.repository.insert({ organization_id: body.organization_id, name: body.name });
    return this.detail(group);
  }

  async update(me: Principal, body: UpdateGroupBody): Promise<GroupDetailDto> {
    const group = await this.load(me, body.group_id, manages);
    await this.repository.rename(group.group_id, body.name);
    return this.detail({ ...group, name: body.name });
  }

  async remove(me: Principal, groupId: number): Promise<void> {
    const group = await this.load(me, groupId, manages);
    await this.repository.delete(group.group_id);
  }

  /** Adds a member of the group's organization; adding someone already in it changes nothing. */
  async addUser(me: Principal, groupId: number, userId: number): Promise<GroupDetailDto> {
    await this.load(me, groupId, manages);
    await this.unitOfWork.run(async (m) => {
      const group = await this.repository.findByIdForUpdate(groupId, m);
      if (!group) throw groupNotFound();
      if (!(await this.access.isMember(group.organization_id, userId, m))) {
        throw badInput(CAMPAIGN_MESSAGES.notAMember, 'not_organization_member');
      }
      if (await this.repository.hasUser(groupId, userId, m)) return;
      if ((await this.repository.countUsers(groupId, m)) >= MAX_GROUP_USERS) {
        throw conflict(CAMPAIGN_MESSAGES.tooManyGroupUsers, 'too_many_grants');
      }
      await this.repository.addUser(groupId, userId, m);
    });
    return this.get(me, groupId);
  }

  async removeUser(me: Principal, groupId: number, userId: number): Promise<void> {
    await this.load(me, groupId, manages);
    if (!(await this.repository.removeUser(groupId, userId))) throw notFound('Group user', 'user_not_found');
  }

  // ------------------------------------------------------------ for the campaigns module

  /** Ids of the organization's groups the user is in. */
  groupIdsOf(userId: number, organizationId: number): Promise<number[]> {
    return this.repository.groupIdsOf(userId, organizationId);
  }

  /** The group when it belongs to the organization, else null. */
  async findInOrganization(groupId: number, organizationId: number): Promise<Group | null> {
    const group = await this.repository.findById(groupId);
    return group && group.organization_id === organizationId ? group : null;
  }

  /** Id and name of groups by id; missing ids are left out. */
  async summaries(groupIds: number[]): Promise<Map<number, { group_id: number; name: string }>> {
    const rows = await this.repository.findByIds(groupIds);
    return new Map(rows.map((g) => [g.group_id, { group_id: g.group_id, name: g.name }]));
  }

  // ------------------------------------------------------------ helpers

  /** The group when the caller may act on it; 404 outside its organization, 403 without the right. */
  private async load(me: Principal, groupId: number, allowed: (actor: OrgActor) => boolean): Promise<Group> {
    const group = await this.repository.findById(groupId);
    if (!group) throw groupNotFound();
    let actor: OrgActor;
    try {
      actor = await this.access.standing(me, { organization_id: group.organization_id });
    } catch {
      throw groupNotFound();
    }
    if (!allowed(actor)) throw forbidden();
    return group;
  }

  private async detail(group: Group): Promise<GroupDetailDto> {
    const ids = await this.repository.userIds(group.group_id, MAX_GROUP_USERS);
    const people = await this.users.summaries(ids);
    const group_users = ids.flatMap((user_id) => {
      const user = people.get(user_id);
      return user ? [{ user_id, user }] : [];
    });
    return { ...group, users: group_users.length, group_users };
  }
}

function manages(actor: OrgActor): boolean {
  return can(actor, 'groups.manage');
}
