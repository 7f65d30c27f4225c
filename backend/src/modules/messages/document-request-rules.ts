import { asData } from '../generation/prompt-builder';

/** The user's words beside a document, in characters. */
export const MAX_DOCUMENT_REQUEST_MESSAGE = 8_000;
/**
 * The document's text the model gets, in characters: with the message and the wrapping it stays within one
 * message's 7,500 estimated tokens.
 */
export const MAX_DOCUMENT_REQUEST_TEXT = 20_000;
export const DOCUMENT_CUT_NOTE = '[The rest of the document was left out: it is too long.]';

/** The user message the model gets: the question, then the document's text as data (never as instruction). */
export function documentRequestPrompt(message: string, documentName: string, text: string): string {
  const name = documentName.replace(/[\r\n\t]+/g, ' ').slice(0, 200);
  const body =
    text.length > MAX_DOCUMENT_REQUEST_TEXT
      ? `${text.slice(0, MAX_DOCUMENT_REQUEST_TEXT)}\n${DOCUMENT_CUT_NOTE}`
      : text;
  return `${message}\n\n${asData(`The following is the content of the attached document '${name}'.`, body)}`;
}
