// The event map comes from the contracts package, the one the server emits with.
export * from '@avatar-studio/contracts/events';
