/** Runs in a thread of the worker pool (see common/workers): renders one message export. */
import { returnWithTransfer, transferableBytes } from '../../common/workers/transfer';
import { type ExportFormat, renderExport } from './message-exports.render';

export interface ExportInput {
  format: ExportFormat;
  text: string;
}

export interface ExportOutput {
  data: Uint8Array;
}

export default async function exportMessage({ format, text }: ExportInput): Promise<ExportOutput> {
  const data = transferableBytes(await renderExport(format, text), true);
  return returnWithTransfer({ data }, [data.buffer as ArrayBuffer]);
}
