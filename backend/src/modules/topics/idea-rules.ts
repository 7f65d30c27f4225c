/** Rules of topic and hashtag generation: their instructions and how an answer becomes a list. */
import { MAX_IDEAS } from '@avatar-studio/contracts';

export { MAX_IDEAS };
export const IDEA_KINDS = ['topics', 'hashtags'] as const;
export type IdeaKind = (typeof IDEA_KINDS)[number];
export const DEFAULT_IDEAS = 10;
export const IDEA_LANGUAGES = ['en', 'es'] as const;
export type IdeaLanguage = (typeof IDEA_LANGUAGES)[number];
export const PLATFORMS = ['instagram', 'tiktok', 'x', 'linkedin', 'facebook', 'youtube'] as const;
export type Platform = (typeof PLATFORMS)[number];
const LANGUAGE_NAMES: Record<IdeaLanguage, string> = { en: 'English', es: 'Spanish' };
const PLATFORM_NAMES: Record<Platform, string> = {
  instagram: 'Instagram',
  tiktok: 'TikTok',
  x: 'X (Twitter)',
  linkedin: 'LinkedIn',
  facebook: 'Facebook',
  youtube: 'YouTube',
};
export const MAX_SUBJECT = 500;
export const MAX_AUDIENCE = 200;
export const MAX_POST_TEXT = 4000;

/** Our fixed instruction for topic ideas (count and language are our own validated values). */
export function topicsInstruction(count: number, language: IdeaLanguage): string {
  return [
    `You suggest topic ideas for content (articles, posts, videos). Suggest exactly ${count} distinct, specific`,
    `topic ideas for the subject and audience the user gives, written in ${LANGUAGE_NAMES[language]}.`,
    'Answer with the ideas only, one per line, without numbering, bullets, quotes or any other text.',
  ].join(' ');
}

/** Our fixed instruction for hashtags (count and platform are our own validated values). */
export function hashtagsInstruction(count: number, platform: Platform): string {
  return [
    `You suggest hashtags for a social media post on ${PLATFORM_NAMES[platform]}. Suggest exactly ${count}`,
    'relevant hashtags for the post the user gives, in the language of the post, mixing popular and specific',
    'ones. Answer with the hashtags only, each starting with #, one per line, without any other text.',
  ].join(' ');
}

/** One idea per line, without list markers or quotes; empty lines dropped; at most `count`. */
export function topicItems(text: string, count: number): string[] {
  const items: string[] = [];
  for (const line of text.split('\n')) {
    const idea = line
      .trim()
      .replace(/^(?:[-*•]|\d{1,3}[.)])\s*/, '')
      .replace(/^["“]|["”]$/g, '')
      .trim();
    if (idea && !items.includes(idea)) items.push(idea);
    if (items.length === count) break;
  }
  return items;
}

/** The hashtags found in the text (letters, digits and _ after a #), deduplicated ignoring case; at most `count`. */
export function hashtagItems(text: string, count: number): string[] {
  const seen = new Set<string>();
  const items: string[] = [];
  for (const match of text.matchAll(/#[\p{L}\p{N}_]+/gu)) {
    const key = match[0].toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    items.push(match[0]);
    if (items.length === count) break;
  }
  return items;
}
