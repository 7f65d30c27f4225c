import { localizeSignupErrors, prefersSpanish } from './signup-messages';

describe('sign-up messages for Spanish callers', () => {
  it('recognises Spanish as the first listed language', () => {
    expect(prefersSpanish('es')).toBe(true);
    expect(prefersSpanish('es-MX,es;q=0.9,en;q=0.8')).toBe(true);
    expect(prefersSpanish('en-US,es;q=0.5')).toBe(false);
    expect(prefersSpanish(undefined)).toBe(false);
  });

  it('gives empty name, email and phone the Spanish texts and leaves other errors alone', () => {
    const errors = [
      { field: 'name', message: 'Name is invalid.' },
      { field: 'last_name', message: 'Last name is invalid.' },
      { field: 'email', message: 'Email is invalid.' },
      { field: 'phone', message: 'Phone number is invalid.' },
    ];
    expect(localizeSignupErrors(errors, { name: '  ', phone: null })).toEqual([
      { field: 'name', message: 'Ingresa tu nombre' },
      { field: 'last_name', message: 'Last name is invalid.' },
      { field: 'email', message: 'Ingresa tu correo' },
      { field: 'phone', message: 'Ingresa tu telefono' },
    ]);
  });

  it('keeps the English text when the field was filled but wrong', () => {
    const errors = [{ field: 'email', message: 'Email is invalid.' }];
    expect(localizeSignupErrors(errors, { email: 'nope' })).toEqual(errors);
  });
});
