// The template grammar and save messages come from the contracts package, word for word as the server checks them.
export * from '@avatar-studio/contracts/template-grammar';
