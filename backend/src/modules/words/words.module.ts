import { forwardRef, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../users/users.module';
import { WordLedgerEntry } from './word-ledger-entry.entity';
import { WordReservation } from './word-reservation.entity';
import { WordsController } from './words.controller';
import { WordsRepository } from './words.repository';
import { WordsService } from './words.service';

/** The word ledger: balances, grants, debits, usage, and the access they give. */
@Module({
  // Users asks the ledger about access and the ledger locks a user's row through Users, hence the forward reference.
  imports: [TypeOrmModule.forFeature([WordLedgerEntry, WordReservation]), forwardRef(() => UsersModule)],
  controllers: [WordsController],
  providers: [WordsService, WordsRepository],
  exports: [WordsService],
})
export class WordsModule {}
