import { Injectable } from '@nestjs/common';
import type { Principal } from '../../common/auth/principal';
import { badInput, unsupportedMedia } from '../../common/errors/domain-error';
import { WorkerPool } from '../../common/workers/worker-pool';
import { AVATAR_FILE_KINDS } from '../avatars/avatar-rules';
import { AvatarsService } from '../avatars/avatars.service';
import { detectFileType, nameContradictsContent } from '../files/file-type';
import { TYPE_NOT_ALLOWED } from '../files/files.service';
import { extractText, TextExtractionFailed } from '../files/text-extraction';
import type { UploadedBlob } from '../files/upload.interceptor';
import { documentRequestPrompt, MAX_DOCUMENT_REQUEST_TEXT } from './document-request-rules';
import type { SendMessageResponse } from './dto/message.dto';
import { MessagesService } from './messages.service';

/**
 * POST /avatars/user-message/document-request: a message to an avatar with a document. The document's text is read
 * in the worker pool and goes to the model inside the user's message (data, never system text); the user message
 * shows only what they wrote. Answered, streamed and stored in the avatar's thread like any avatar message.
 */
@Injectable()
export class DocumentRequestService {
  constructor(
    private readonly messages: MessagesService,
    private readonly avatars: AvatarsService,
    private readonly workers: WorkerPool,
  ) {}

  async send(
    me: Principal,
    avatarId: number,
    message: string,
    upload: UploadedBlob | undefined,
  ): Promise<SendMessageResponse> {
    // Not visible is 404 before anything else is looked at; then the premium check of avatars (412).
    await this.avatars.visible(me, avatarId);
    await this.avatars.requirePremium(me);
    if (!message?.trim()) throw badInput("The message can't be empty.", 'empty_message');
    if (!upload) throw badInput('Send the document in the form field "file".', 'file_required');
    const type = detectFileType(upload.buffer);
    if (
      !type ||
      !(AVATAR_FILE_KINDS as readonly string[]).includes(type.kind) ||
      nameContradictsContent(upload.originalname, type)
    )
      throw unsupportedMedia(TYPE_NOT_ALLOWED, 'unsupported_type');
    let text: string;
    try {
      text = await extractText(this.workers, upload.buffer, type.kind, {
        maxChars: MAX_DOCUMENT_REQUEST_TEXT + 1,
      });
    } catch (err) {
      if (!(err instanceof TextExtractionFailed)) throw err;
      throw badInput(
        'This file could not be read. It may be damaged or protected by a password.',
        'unreadable_file',
      );
    }
    if (!text.trim()) throw badInput('No text could be read from this file.', 'no_text_in_file');
    return this.messages.sendWithDocument(me, avatarId, {
      visible: message.trim(),
      prompt: documentRequestPrompt(message.trim(), upload.originalname, text),
      question: message.trim(),
    });
  }
}
