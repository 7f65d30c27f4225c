import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WordLedgerEntry } from './word-ledger-entry.entity';
import { WordReservation } from './word-reservation.entity';
import { WordsController } from './words.controller';
import { WordsRepository } from './words.repository';
import { WordsService } from './words.service';

/** The word ledger: balances, grants, debits, usage, and the access they give. */
@Module({
  imports: [TypeOrmModule.forFeature([WordLedgerEntry, WordReservation])],
  controllers: [WordsController],
  providers: [WordsService, WordsRepository],
  exports: [WordsService],
})
export class WordsModule {}
