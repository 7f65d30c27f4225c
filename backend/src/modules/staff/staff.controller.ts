import { Body, Controller, Delete, Get, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import {
  CreateStaffDto,
  StaffListQuery,
  StaffPageResponse,
  StaffResponse,
  UpdateStaffDto,
} from './dto/staff.dto';
import { StaffService } from './staff.service';
import { IdParam } from '../../common/http/id-param';

@ApiTags('Staff')
@Controller('staff')
@Authenticated({ permission: 'staff.manage' })
export class StaffController {
  constructor(private readonly staff: StaffService) {}

  @Get('admin/all')
  @ApiOperation({ summary: 'Staff list, 10 per page; query searches the email' })
  @ApiOkResponse({ type: StaffPageResponse })
  list(@Query() query: StaffListQuery): Promise<StaffPageResponse> {
    return this.staff.list(query);
  }

  @Post()
  @ApiOperation({ summary: 'Make an existing user staff (role defaults to admin)' })
  @ApiCreatedResponse({ type: StaffResponse })
  async add(@Body() body: CreateStaffDto): Promise<StaffResponse> {
    return { staff: await this.staff.add(body.email, body.role) };
  }

  @Put()
  @ApiOperation({ summary: 'Change a staff role; the last admin cannot be demoted (409 last_admin)' })
  @ApiOkResponse({ type: StaffResponse })
  async update(@CurrentUser() me: Principal, @Body() body: UpdateStaffDto): Promise<StaffResponse> {
    return { staff: await this.staff.changeRole(body.staff_id, body.role, me.user_id) };
  }

  @Delete(':staff_id')
  @ApiOperation({ summary: 'Remove a staff member (the user stays); the last admin cannot be removed' })
  @ApiOkResponse({ type: StaffResponse, description: 'The removed staff member' })
  async remove(@CurrentUser() me: Principal, @IdParam('staff_id') staffId: number): Promise<StaffResponse> {
    return { staff: await this.staff.remove(staffId, me.user_id) };
  }
}
