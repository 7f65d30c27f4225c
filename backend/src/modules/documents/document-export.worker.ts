/** Runs in a thread of the worker pool (see common/workers): renders a document's Markdown as a .docx. */
import { returnWithTransfer, transferableBytes } from '../../common/workers/transfer';
import { renderExport } from '../messages/message-exports.render';

export interface DocumentExportInput {
  markdown: string;
}

export interface DocumentExportOutput {
  data: Uint8Array;
}

export default async function exportDocument({
  markdown,
}: DocumentExportInput): Promise<DocumentExportOutput> {
  const data = transferableBytes(await renderExport('word', markdown), true);
  return returnWithTransfer({ data }, [data.buffer as ArrayBuffer]);
}
