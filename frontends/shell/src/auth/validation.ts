/** The sign-up rules. Each returns an i18n key of the shell namespace, or null when valid. */
import { isValidPhone } from '@avatar-studio/contracts/phone';

// The lookahead refuses a domain holding a space or "@" at once; without it, a long run of dots followed by a
// space made the engine retry every dot against the rest of the text (quadratic). Same addresses accepted.
export const EMAIL_PATTERN = /^[^\s@]+@(?=[^\s@]+$)[^\s@]+\.[^\s@]{2,}$/;
export const PASSWORD_MIN = 6;

export const SIGNUP_REASONS = ['Recommendation', 'Facebook Ad', 'Instagram Ad', 'Other'] as const;

export interface SignupValues {
  name: string;
  last_name: string;
  email: string;
  password: string;
  confirm_password: string;
  phone: string;
  signup_reason: string;
  signup_reason_other: string;
}

export function validateSignup(values: SignupValues): Partial<Record<keyof SignupValues, string>> {
  const errors: Partial<Record<keyof SignupValues, string>> = {};
  if (!values.name.trim()) errors.name = 'auth.errors.name';
  if (!values.last_name.trim()) errors.last_name = 'auth.errors.lastName';
  if (!EMAIL_PATTERN.test(values.email.trim())) errors.email = 'auth.errors.email';
  if (values.password.length < PASSWORD_MIN) errors.password = 'auth.errors.password';
  if (values.confirm_password !== values.password) errors.confirm_password = 'auth.errors.confirm';
  if (!isValidPhone(values.phone)) errors.phone = 'auth.errors.phone';
  if (values.signup_reason === 'Other' && !values.signup_reason_other.trim()) {
    errors.signup_reason_other = 'auth.errors.reason';
  }
  return errors;
}

/** The phone is sent as its digits, cut to 10 (the server's rule). */
export { shapePhone } from '@avatar-studio/contracts/phone';

/** The reason sent: the chosen option, or the free text when Other is chosen. */
export function signupReason(values: Pick<SignupValues, 'signup_reason' | 'signup_reason_other'>): string {
  return values.signup_reason === 'Other' ? values.signup_reason_other.trim() : values.signup_reason;
}
