/** Personal API keys look like `as_<random>`; anything else in the bearer header is a JWT. */
export const API_KEY_PREFIX = 'as_';
