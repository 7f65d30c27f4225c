/** Words in a text, as metered for word credits: runs of non-whitespace separated by any whitespace. */
export function countWords(text: string | null | undefined): number {
  if (!text) return 0;
  const words = text.trim().split(/\s+/u);
  return words[0] === '' ? 0 : words.length;
}
