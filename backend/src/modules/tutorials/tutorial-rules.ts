/** Rules of tutorial videos: where a video may come from, as stored. */
export const TUTORIAL_LANGUAGES = ['en', 'es'] as const;
export type TutorialLanguage = (typeof TUTORIAL_LANGUAGES)[number];
export const MAX_TUTORIAL_NAME = 200;
export const FILE_CONTENT_PATH = '/api/files/content/';
export const BAD_VIDEO = 'The video must be a YouTube link or video id, or an uploaded video file.';
export const BAD_THUMBNAIL = 'The thumbnail must be an uploaded image.';

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_HOSTS = new Set([
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'youtu.be',
  'www.youtube-nocookie.com',
]);

/** An uploaded file's src (our own path, one segment after it). */
export function isUploadedSrc(value: string): boolean {
  if (!value.startsWith(FILE_CONTENT_PATH)) return false;
  const key = value.slice(FILE_CONTENT_PATH.length);
  return key.length > 0 && key.length <= 200 && !key.includes('/') && !key.includes('..');
}

/**
 * The stored form of a video: the YouTube id of a YouTube link (watch?v=, youtu.be/, embed/, shorts/) or of a
 * bare id, or an uploaded video's src as it is; null for anything else.
 */
export function normalizeVideo(input: string): string | null {
  const value = input.trim();
  if (YOUTUBE_ID.test(value)) return value;
  if (isUploadedSrc(value)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (!YOUTUBE_HOSTS.has(url.hostname)) return null;
  const id =
    url.hostname === 'youtu.be'
      ? url.pathname.slice(1)
      : (url.searchParams.get('v') ?? url.pathname.split('/').filter(Boolean).at(-1) ?? '');
  return YOUTUBE_ID.test(id) ? id : null;
}
