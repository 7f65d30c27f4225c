import { Injectable } from '@nestjs/common';
import type { Principal } from '../../common/auth/principal';
import { badInput } from '../../common/errors/domain-error';
import { FeatureFlagsService } from '../app-config/feature-flags.service';
import { AvatarsService } from '../avatars/avatars.service';
import type { AvatarFileDto } from '../avatars/dto/avatar.dto';
import { WorkerPool, WorkerTaskFailed, workerTask } from '../../common/workers/worker-pool';
import type { ExportFormat } from './message-exports.render';
import type { ExportInput, ExportOutput } from './message-exports.worker';
import { MessagesService } from './messages.service';

/** Time limit of one export (a message is at most a few tens of kilobytes). */
const EXPORT_TIMEOUT_MS = 30_000;
const TASK = workerTask(__filename, 'message-exports.worker');

export const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** PDF and Word versions of a message's markdown (POST /messages/pdf and /messages/word), and share. */
@Injectable()
export class MessageExportsService {
  constructor(
    private readonly messages: MessagesService,
    private readonly avatars: AvatarsService,
    private readonly flags: FeatureFlagsService,
    private readonly workers: WorkerPool,
  ) {}

  pdf(text: string): Promise<Buffer> {
    return this.render('pdf', text);
  }

  word(text: string): Promise<Buffer> {
    return this.render('word', text);
  }

  /** Rendering is CPU-heavy (pdfkit lays out every line): it runs in the worker pool, never on the event loop. */
  private async render(format: ExportFormat, text: string): Promise<Buffer> {
    let out: ExportOutput;
    try {
      out = await this.workers.run<ExportInput, ExportOutput>(
        TASK,
        { format, text },
        { timeoutMs: EXPORT_TIMEOUT_MS },
      );
    } catch (err) {
      if (!(err instanceof WorkerTaskFailed)) throw err;
      throw new Error(`The ${format} export failed: ${err.message}`);
    }
    return Buffer.from(out.data.buffer, out.data.byteOffset, out.data.byteLength);
  }

  /**
   * POST /messages/share: copies one of the caller's messages (in the current scope) into one of their avatars
   * as an editable text file named after its conversation and today's date, indexed like any of its files.
   */
  async share(me: Principal, messageId: number, avatarId: number): Promise<AvatarFileDto> {
    await this.flags.assertOn('avatars_enabled');
    const row = await this.messages.shareable(me, messageId);
    if (!row.content?.trim()) {
      throw badInput('This message has no text to share yet.', 'message_has_no_content');
    }
    const suffix = ` - ${new Date().toISOString().slice(0, 10)}.txt`;
    const name = row.name.slice(0, 200) + suffix;
    return this.avatars.addEditableFile(me, avatarId, null, { name, content: row.content });
  }
}
