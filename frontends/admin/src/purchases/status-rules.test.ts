import { selectableStatuses, statusWarning } from './status-rules';

describe('purchase status rules', () => {
  it('offers all five statuses, or only cancelled and revoked once final', () => {
    expect(selectableStatuses('active')).toEqual(['active', 'completed', 'pending', 'cancelled', 'revoked']);
    expect(selectableStatuses('pending')).toHaveLength(5);
    expect(selectableStatuses('cancelled')).toEqual(['cancelled', 'revoked']);
    expect(selectableStatuses('revoked')).toEqual(['cancelled', 'revoked']);
  });

  it('warns for cancel, revoke and granting from another status', () => {
    expect(statusWarning('active', 'cancelled')).toBe('cancelled');
    expect(statusWarning('active', 'revoked')).toBe('revoked');
    expect(statusWarning('pending', 'active')).toBe('granted');
    expect(statusWarning('failed', 'completed')).toBe('granted');
    expect(statusWarning('active', 'completed')).toBeNull();
    expect(statusWarning('active', 'active')).toBeNull();
    expect(statusWarning('active', 'pending')).toBeNull();
  });
});
