import { CONFIG_KEY_MAP, CONFIG_KEYS } from './app-config.keys';
import { checkConfigValue } from './app-config.rules';

const def = (key: string) => CONFIG_KEY_MAP.get(key)!;

describe('checkConfigValue', () => {
  it('accepts every default', () => {
    for (const k of CONFIG_KEYS) {
      if (k.default !== null) expect([k.key, checkConfigValue(k, k.default)]).toEqual([k.key, null]);
    }
  });

  it('takes only true or false for switches', () => {
    expect(checkConfigValue(def('signup_enabled'), 'false')).toBeNull();
    expect(checkConfigValue(def('signup_enabled'), 'yes')).toBe('signup_enabled must be true or false.');
    expect(checkConfigValue(def('signup_enabled'), '')).not.toBeNull();
  });

  it('takes #rrggbb colours', () => {
    expect(checkConfigValue(def('primary_color'), '#A1b2C3')).toBeNull();
    expect(checkConfigValue(def('primary_color'), 'red')).toMatch(/colour/);
    expect(checkConfigValue(def('primary_color'), '#abc')).toMatch(/colour/);
  });

  it('takes http(s) URLs, and server paths only where uploads go', () => {
    expect(checkConfigValue(def('favicon_url'), 'https://cdn.example.com/f.ico')).toBeNull();
    expect(checkConfigValue(def('favicon_url'), '/api/files/content/abc.png')).toBeNull();
    expect(checkConfigValue(def('favicon_url'), '//evil.example.com/x')).not.toBeNull();
    expect(checkConfigValue(def('favicon_url'), 'javascript:alert(1)')).not.toBeNull();
    expect(checkConfigValue(def('welcome_email_webhook_url'), '/hook')).not.toBeNull();
    expect(checkConfigValue(def('welcome_email_webhook_url'), 'ftp://example.com')).not.toBeNull();
  });

  it('takes JSON objects for JSON keys', () => {
    expect(checkConfigValue(def('firebaseConfig'), '{"apiKey":"x"}')).toBeNull();
    expect(checkConfigValue(def('firebaseConfig'), '{oops')).toBe('firebaseConfig must be valid JSON.');
    expect(checkConfigValue(def('firebaseConfig'), '42')).toBe('firebaseConfig must be a JSON object.');
  });

  it('takes only the known template sort keys', () => {
    expect(checkConfigValue(def('templates_default_sort'), 'name_asc')).toBeNull();
    expect(checkConfigValue(def('templates_default_sort'), 'random')).toMatch(/must be one of/);
  });

  it('requires every Super Fetch variable in the base prompt', () => {
    expect(checkConfigValue(def('super_fetch_prompt'), 'Write about {Topic}')).toMatch(/\{Task\}/);
    const all = '{Task} {Topic} {Target} {Person} {Tone} {Format} {Examples} {CTA} {Prompt}';
    expect(checkConfigValue(def('super_fetch_prompt'), all)).toBeNull();
    expect(checkConfigValue(def('super_fetch_prompt'), all.replace('{CTA}', 'CTA'))).toBe(
      'The Super Fetch prompt must include {CTA}.',
    );
    expect(checkConfigValue(def('super_fetch_prompt'), all.replace(' {Person}', ''))).toBe(
      'The Super Fetch prompt must include {Person}.',
    );
    // Its default is a valid prompt of its own.
    expect(checkConfigValue(def('super_fetch_prompt'), def('super_fetch_prompt').default!)).toBeNull();
  });
});
