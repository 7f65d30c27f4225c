import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsEmail, IsIn, IsInt, MaxLength, Min } from 'class-validator';
import { IsOptionalNotNull } from '../../../common/http/validators';
import { PageInfo, PageQuery } from '../../../common/http/pagination';
import { STAFF_ROLES, type StaffRole } from '../../../common/auth/permissions';

export class StaffUserDto {
  @ApiProperty()
  name: string;

  @ApiProperty()
  last_name: string;

  @ApiProperty()
  email: string;
}

export class StaffDto {
  @ApiProperty()
  staff_id: number;

  @ApiProperty({ enum: STAFF_ROLES })
  role: StaffRole;

  @ApiProperty()
  user_id: number;

  @ApiProperty({ type: StaffUserDto })
  user: StaffUserDto;

  @ApiProperty()
  createdAt: Date;

  @ApiProperty()
  updatedAt: Date;
}

export class StaffResponse {
  @ApiProperty({ type: StaffDto })
  staff: StaffDto;
}

export class StaffPageResponse extends PageInfo {
  @ApiProperty({ type: [StaffDto] })
  staff: StaffDto[];
}

/** `?page=&query=` (query searches the email). */
export class StaffListQuery extends PageQuery {}

const trimLower = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;

export class CreateStaffDto {
  @ApiProperty({ example: 'jane@example.com', description: 'An existing user' })
  @Transform(trimLower)
  @IsEmail({}, { message: 'Email is invalid.' })
  @MaxLength(254, { message: 'Email is invalid.' })
  email: string;

  @ApiPropertyOptional({ enum: STAFF_ROLES, default: 'admin' })
  @IsOptionalNotNull()
  @IsIn(STAFF_ROLES, { message: 'Role must be admin or manager.' })
  role?: StaffRole;
}

export class UpdateStaffDto {
  @ApiProperty()
  @Type(() => Number)
  @IsInt({ message: 'staff_id must be a whole number.' })
  @Min(1, { message: 'staff_id must be a whole number.' })
  staff_id: number;

  @ApiProperty({ enum: STAFF_ROLES })
  @IsIn(STAFF_ROLES, { message: 'Role must be admin or manager.' })
  role: StaffRole;
}
