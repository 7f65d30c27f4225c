import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_ID } from './id-param';

/**
 * `?organization_id=`: the client may append it to every request; the auth guard reads and checks it, and
 * query DTOs extend this so the validation pipe accepts it.
 */
export class ScopeQuery {
  @ApiPropertyOptional({ description: 'Organization scope' })
  @IsOptional()
  organization_id?: string;
}

/** The most rows a list answers at once; a larger `limit` is refused with 400 (see docs/DECISIONS.md). */
export const MAX_PAGE_LIMIT = 200;

/** `?page=&limit=&query=` for paged lists; pages start at 1. Every list's query DTO extends this. */
export class PageQuery extends ScopeQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_ID, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be a whole number.' })
  @Min(1, { message: 'page must be 1 or more.' })
  @Max(MAX_ID, { message: `page must be ${MAX_ID} or less.` })
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number.' })
  @Min(1, { message: 'limit must be 1 or more.' })
  @Max(MAX_PAGE_LIMIT, { message: `limit must be ${MAX_PAGE_LIMIT} or less.` })
  limit?: number;

  @ApiPropertyOptional({ description: 'Free-text search' })
  @IsOptional()
  @IsString()
  @MaxLength(200, { message: 'The search text is too long.' })
  query?: string;
}

/** What every paged list answers beside its rows, as `{ <things>, total, page, limit }`. */
export class PageInfo {
  @ApiProperty({ description: 'Rows matching, over all pages' })
  total: number;

  @ApiProperty({ description: 'This page, from 1' })
  page: number;

  @ApiProperty({ description: 'Rows per page' })
  limit: number;
}

export interface Page {
  page: number;
  limit: number;
  skip: number;
}

/** Rows to skip and take; `limit` is also held to MAX_PAGE_LIMIT here, for a caller whose query skipped the DTO. */
export function toPage(query: { page?: number; limit?: number }, defaultLimit: number): Page {
  const page = query.page ?? 1;
  const limit = Math.min(query.limit ?? defaultLimit, MAX_PAGE_LIMIT);
  return { page, limit, skip: (page - 1) * limit };
}

/** Escapes LIKE wildcards so a search for "50%" finds "50%". */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
}
