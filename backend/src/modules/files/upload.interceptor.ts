import {
  applyDecorators,
  BadRequestException,
  CallHandler,
  ExecutionContext,
  HttpException,
  Inject,
  Injectable,
  mixin,
  NestInterceptor,
  PayloadTooLargeException,
  Type,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import type { Observable } from 'rxjs';
import { badInput, tooLarge } from '../../common/errors/domain-error';
import { APP_ENV, AppEnv } from '../../config/env';

/** What multer puts on the request for one in-memory file. */
export interface UploadedBlob {
  fieldname: string;
  originalname: string;
  mimetype: string;
  size: number;
  buffer: Buffer;
}

export const FILE_TOO_LARGE = 'The file is too large.';

/**
 * Multer in memory for one file field, capped at MAX_UPLOAD_BYTES, with its errors in our words
 * (413 'The file is too large.'). Non-multipart requests pass through untouched, so a route can also take JSON.
 */
export function FileUpload(field = 'file'): Type<NestInterceptor> {
  @Injectable()
  class FileUploadInterceptor implements NestInterceptor {
    private readonly inner: NestInterceptor;

    constructor(@Inject(APP_ENV) env: AppEnv) {
      const Multer = FileInterceptor(field, {
        // UTF-8 file names (multer's default reads them as latin1 and garbles accents).
        defParamCharset: 'utf8',
        limits: { fileSize: env.maxUploadBytes, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 30 },
      } as Parameters<typeof FileInterceptor>[1]);
      this.inner = new Multer();
    }

    async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
      try {
        return await this.inner.intercept(context, next);
      } catch (err) {
        if (err instanceof PayloadTooLargeException) throw tooLarge(FILE_TOO_LARGE);
        if (err instanceof BadRequestException && /Unexpected (file )?field/i.test(err.message)) {
          throw badInput(`Send one file in the form field "${field}".`, 'unexpected_field');
        }
        if (err instanceof HttpException)
          throw badInput(`The upload could not be read: ${err.message}`, 'bad_upload');
        throw err;
      }
    }
  }
  return mixin(FileUploadInterceptor);
}

/** `@UseInterceptors(FileUpload(field))` under a name that reads well on a route. */
export function AcceptsFile(field = 'file') {
  return applyDecorators(UseInterceptors(FileUpload(field)));
}
