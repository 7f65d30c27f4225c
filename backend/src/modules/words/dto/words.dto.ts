import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDate, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PageInfo, PageQuery } from '../../../common/http/pagination';
import { UNLIMITED_SENTINEL } from '../word-balance';
import { MAX_WORDS } from '../words.service';

export class WordBalanceDto {
  @ApiProperty({ description: 'Words left (0 when only an unlimited grant is active)' })
  words: number;

  @ApiProperty({ description: 'An unlimited grant is active' })
  unlimited: boolean;

  @ApiProperty({ description: `What the UI shows: ${UNLIMITED_SENTINEL} when unlimited, else words` })
  display_balance: number;

  @ApiProperty({ description: 'Whether the words allow generating content (unlimited or words left)' })
  has_access: boolean;
}

export class WordBalanceResponse {
  @ApiProperty({ type: WordBalanceDto })
  balance: WordBalanceDto;
}

export class WordLedgerEntryDto {
  @ApiProperty()
  entry_id: number;

  @ApiProperty({ enum: ['grant', 'debit', 'expiry', 'adjustment'] })
  kind: string;

  @ApiProperty({ description: 'Positive for grants, negative for debits' })
  words: number;

  @ApiProperty({ description: 'A grant of unlimited words' })
  unlimited: boolean;

  @ApiProperty({ example: 'purchase', description: 'purchase, gift, trial, admin, generation…' })
  source: string;

  @ApiProperty({ type: String, nullable: true, description: 'Purchase id, message id…' })
  reference: string | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Organization the words were spent in' })
  organization_id: number | null;

  @ApiProperty({ type: Date, nullable: true, description: 'When a grant stops being usable' })
  expires_at: Date | null;

  @ApiProperty()
  createdAt: Date;
}

export class WordLedgerPageResponse extends PageInfo {
  @ApiProperty({ type: [WordLedgerEntryDto] })
  entries: WordLedgerEntryDto[];
}

/** `?page=&limit=` of the caller's own ledger, newest first. */
export class WordLedgerQuery extends PageQuery {}

export class AdminGrantWordsDto {
  @ApiProperty({ description: 'The user who receives the words' })
  @Type(() => Number)
  @IsInt({ message: 'user_id must be a whole number.' })
  @Min(1, { message: 'user_id must be a whole number.' })
  user_id: number;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_WORDS, description: 'Give either words or unlimited' })
  @IsOptional()
  @IsInt({ message: 'words must be a whole number.' })
  @Min(1, { message: 'words must be 1 or more.' })
  @Max(MAX_WORDS, { message: `words must be ${MAX_WORDS} or less.` })
  words?: number;

  @ApiPropertyOptional({ description: 'Grant unlimited words instead of a number' })
  @IsOptional()
  @IsBoolean({ message: 'unlimited must be true or false.' })
  unlimited?: boolean;

  @ApiPropertyOptional({ type: Date, description: 'When the granted words expire (future); none = never' })
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'expires_at must be a date.' })
  expires_at?: Date;

  @ApiPropertyOptional({ maxLength: 500, description: 'Why, for the back office' })
  @IsOptional()
  @IsString({ message: 'note must be text.' })
  @MaxLength(500, { message: 'note must be 500 characters or less.' })
  note?: string;
}
