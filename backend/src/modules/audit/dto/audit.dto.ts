import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, Max, Min } from 'class-validator';
import { AUDIT_ACTIONS, AUDIT_PAGE_MAX, type AuditAction } from '@avatar-studio/contracts';
import { STAFF_ROLES, type StaffRole } from '../../../common/auth/permissions';
import { PageInfo, ScopeQuery } from '../../../common/http/pagination';

export const AUDIT_PAGE_DEFAULT = 50;

/** `GET /api/audit-events` filters; every one optional, combined with AND. */
export class AuditEventsQuery extends ScopeQuery {
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be a whole number.' })
  @Min(1, { message: 'page must be 1 or more.' })
  @Max(100000, { message: 'page must be 100000 or less.' })
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: AUDIT_PAGE_MAX, default: AUDIT_PAGE_DEFAULT })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number.' })
  @Min(1, { message: 'limit must be 1 or more.' })
  @Max(AUDIT_PAGE_MAX, { message: `limit must be ${AUDIT_PAGE_MAX} or less.` })
  limit?: number;

  @ApiPropertyOptional({ description: 'Only actions of this user' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'actor_user_id must be a whole number.' })
  @Min(1, { message: 'actor_user_id must be a whole number.' })
  actor_user_id?: number;

  @ApiPropertyOptional({ description: 'Only actions on this user' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'target_user_id must be a whole number.' })
  @Min(1, { message: 'target_user_id must be a whole number.' })
  target_user_id?: number;

  @ApiPropertyOptional({ enum: AUDIT_ACTIONS })
  @IsOptional()
  @IsIn(AUDIT_ACTIONS, { message: 'action is not a known audit action.' })
  action?: AuditAction;

  @ApiPropertyOptional({
    description: 'From this time, inclusive (ISO 8601)',
    example: '2026-11-01T00:00:00Z',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'from must be a date and time (ISO 8601).' })
  from?: string;

  @ApiPropertyOptional({
    description: 'Before this time, exclusive (ISO 8601)',
    example: '2026-12-01T00:00:00Z',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'to must be a date and time (ISO 8601).' })
  to?: string;
}

export class AuditEventView {
  @ApiProperty({ description: 'A whole number, as a string (bigint)' }) audit_event_id: string;
  @ApiProperty({ enum: AUDIT_ACTIONS }) action: AuditAction;
  @ApiProperty({ type: Number, nullable: true }) actor_user_id: number | null;
  @ApiProperty({ type: String, nullable: true }) actor_email: string | null;
  @ApiProperty({ enum: STAFF_ROLES, nullable: true }) actor_staff_role: StaffRole | null;
  @ApiProperty({ type: Number, nullable: true }) target_user_id: number | null;
  @ApiProperty({ type: String, nullable: true }) target_type: string | null;
  @ApiProperty({ type: String, nullable: true }) target_id: string | null;
  @ApiProperty({ type: Number, nullable: true }) organization_id: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Client address' }) ip: string | null;
  @ApiProperty({ type: String, nullable: true }) user_agent: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) details: Record<string, unknown>;
  @ApiProperty() createdAt: Date;
}

export class AuditEventsPageResponse extends PageInfo {
  @ApiProperty({ type: [AuditEventView] }) audit_events: AuditEventView[];
}
