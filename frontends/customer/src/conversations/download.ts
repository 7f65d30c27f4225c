/** Saves a blob as a file through a temporary object URL (the browser's download, no new tab). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled, so the download has started reading it.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
