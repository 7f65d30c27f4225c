import { api, unwrap } from '../api/client';

/**
 * The body options that make the generated client send a multipart form as it is (the browser writes the
 * boundary): spread them into `api.POST(path, { params, ...multipart({ file }) })`.
 */
export function multipart(fields: Record<string, string | Blob | null | undefined>): {
  body: never;
  bodySerializer: (body: unknown) => FormData;
} {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== null && value !== undefined) form.append(name, value);
  }
  return { body: form as never, bodySerializer: (body) => body as FormData };
}

/** POST /api/files (multipart field `file`): stores a file and answers its src. */
export async function uploadFile(file: File): Promise<string> {
  const result = await unwrap(api.POST('/api/files', { ...multipart({ file }) }));
  return result.file.src;
}
