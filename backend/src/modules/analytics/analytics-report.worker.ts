/** Runs in a thread of the worker pool (see common/workers): writes one analytics report as CSV. */
import { returnWithTransfer, transferableBytes } from '../../common/workers/transfer';
import { toCsv } from './csv';

export interface ReportInput {
  rows: (string | number | null)[][];
}

export interface ReportOutput {
  data: Uint8Array;
}

export default function writeReport({ rows }: ReportInput): ReportOutput {
  const data = transferableBytes(Buffer.from(toCsv(rows), 'utf8'), true);
  return returnWithTransfer({ data }, [data.buffer as ArrayBuffer]);
}
