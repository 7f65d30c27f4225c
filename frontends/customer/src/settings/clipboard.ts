/** Writes `text` to the clipboard; rejects when the browser refuses or has no clipboard (insecure page). */
export async function copyToClipboard(text: string): Promise<void> {
  if (!navigator.clipboard?.writeText) throw new Error('Clipboard unavailable');
  await navigator.clipboard.writeText(text);
}
