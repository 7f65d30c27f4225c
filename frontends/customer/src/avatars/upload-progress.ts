/**
 * A fetch for one call of the generated client that reports upload progress (fetch cannot): the client still
 * builds the request (address, token, organization scope); this sends it with XMLHttpRequest.
 */
export function fetchWithUploadProgress(onProgress: (fraction: number) => void) {
  return async (request: Request): Promise<Response> => {
    const body = await request.blob();
    return new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      request.headers.forEach((value, name) => xhr.setRequestHeader(name, value));
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
      };
      xhr.onload = () => {
        onProgress(1);
        resolve(
          new Response(xhr.status === 204 ? null : xhr.responseText, {
            status: xhr.status,
            headers: { 'content-type': xhr.getResponseHeader('content-type') ?? 'application/json' },
          }),
        );
      };
      xhr.onerror = () => reject(new TypeError('The upload failed.'));
      xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
      request.signal.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(body);
    });
  };
}
