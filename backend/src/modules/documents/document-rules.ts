/** Document content of 65000 characters or more is refused with this sentence. */
export const MAX_DOCUMENT_CONTENT = 64_999;
export const DOCUMENT_TOO_LARGE = 'The file length is too large, please remove text to save';
/** A document's name is required. */
export const DOCUMENT_NAME_REQUIRED = "The value can't be empty";
export const MAX_DOCUMENT_NAME = 255;
