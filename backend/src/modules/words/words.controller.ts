import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/authenticated.decorator';
import type { Principal } from '../../common/auth/principal';
import {
  AdminGrantWordsDto,
  WordBalanceResponse,
  WordLedgerPageResponse,
  WordLedgerQuery,
} from './dto/words.dto';
import { AuditService } from '../audit/audit.service';
import { WordsService } from './words.service';

@ApiTags('Words')
@Controller('words')
export class WordsController {
  constructor(
    private readonly words: WordsService,
    private readonly audit: AuditService,
  ) {}

  @Get('balance')
  @Authenticated()
  @ApiOperation({ summary: "The caller's word balance (display_balance 1000000 = unlimited)" })
  @ApiOkResponse({ type: WordBalanceResponse })
  async balance(@CurrentUser() me: Principal): Promise<WordBalanceResponse> {
    return { balance: await this.words.view(me.user_id) };
  }

  @Get('ledger')
  @Authenticated()
  @ApiOperation({ summary: "The caller's grants and debits, newest first, 20 per page" })
  @ApiOkResponse({ type: WordLedgerPageResponse })
  ledger(@CurrentUser() me: Principal, @Query() query: WordLedgerQuery): Promise<WordLedgerPageResponse> {
    return this.words.ledger(me.user_id, query);
  }

  @Post('admin/grant')
  @Authenticated({ permission: 'words.grant' })
  @ApiOperation({ summary: 'Give a user words or unlimited words (staff admins)' })
  @ApiCreatedResponse({ type: WordBalanceResponse, description: "The user's balance after the grant" })
  async grant(@CurrentUser() me: Principal, @Body() body: AdminGrantWordsDto): Promise<WordBalanceResponse> {
    await this.words.grant(body.user_id, {
      words: body.words,
      unlimited: body.unlimited || undefined,
      source: 'admin',
      expires_at: body.expires_at ?? null,
      note: body.note ?? null,
      created_by: me.user_id,
    });
    await this.audit.record('words.granted', {
      target_user_id: body.user_id,
      details: {
        words: body.words ?? null,
        unlimited: !!body.unlimited,
        expires_at: body.expires_at ?? null,
      },
    });
    return { balance: await this.words.view(body.user_id) };
  }
}
