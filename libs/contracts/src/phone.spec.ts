import { isValidPhone, shapePhone } from './phone';

describe('the phone rule', () => {
  it.each(['5551234567', '555 123 4567', '(555) 123-4567', '555.123.4567', '+5551234567', ' 55 5123 4567 '])(
    'accepts %s',
    (phone) => expect(isValidPhone(phone)).toBe(true),
  );

  it.each([
    '12345',
    '555123456',
    '55512345678',
    '+52 55 1234 5678',
    '555-123-456a',
    '555 - - 123 4567',
    '',
    5551234567,
  ])('refuses %s', (phone) => expect(isValidPhone(phone)).toBe(false));

  it('shapes a number to its 10 digits', () => {
    expect(shapePhone('(555) 123-4567')).toBe('5551234567');
  });
});
