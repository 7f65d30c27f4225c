import { gzipSync } from 'node:zlib';
import { landingScript, renderLandingPage, safeHref, videoEmbed, type LandingInput } from './landing-page';

const NONCE = 'bm9uY2U=';

function input(values: Record<string, string | null>, over: Partial<LandingInput> = {}): LandingInput {
  return {
    language: 'en',
    config: new Map(Object.entries(values)),
    signupEnabled: true,
    otherLanguageEnabled: false,
    featureIcons: true,
    ...over,
  };
}

const FULL = {
  app_name: 'Acme Studio',
  title: 'Write with avatars',
  tagline: 'Content that sounds like you',
  primary_color: '#123456',
  accent_color: '#abcdef',
  landing_logo_src: '/api/files/content/logo.png',
  landing_image_src: 'https://cdn.example.com/hero.png',
  intro_video_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  feature1_title: 'Avatars',
  feature1_description: 'Assistants that know your brand',
  feature2_title: 'Templates',
  feature2_description: 'Reusable prompts',
  feature3_title: 'Documents',
  feature3_description: 'Long-form writing',
  benefit1_title: 'Faster',
  benefit1_description: 'Ten times faster drafts',
  benefit2_title: 'Consistent',
  benefit2_description: 'One voice',
  benefit3_title: 'Private',
  benefit3_description: 'Your data stays yours',
  high_ticket_offer_name: 'Done-for-you coaching',
  high_ticket_offer_link: 'https://offer.example.com/vip',
  tracking_code: '<script>window.tracked=1</script>',
};

describe('landing page', () => {
  it('shows the app config: texts, logo, colours, three features and three benefits, video, offer, sign-up links', () => {
    const html = renderLandingPage(input(FULL), NONCE);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<title>Write with avatars | Content that sounds like you</title>');
    expect(html).toContain('--primary:#123456;--accent:#abcdef');
    expect(html).toContain('<img src="/api/files/content/logo.png"');
    expect(html).toContain('<img src="https://cdn.example.com/hero.png" alt="" fetchpriority="high">');
    for (const key of Object.keys(FULL).filter((k) => /^(feature|benefit)\d_/.test(k)))
      expect(html).toContain(FULL[key as keyof typeof FULL]);
    expect(html).toContain('src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"');
    expect(html).toContain(
      '<h2>Done-for-you coaching</h2><a class="button big" href="https://offer.example.com/vip"',
    );
    expect(html.match(/href="\/auth\/signup"/g)?.length).toBeGreaterThanOrEqual(2);
    expect(html).toContain('href="/auth/login"');
    expect(html).toContain(`<script nonce="${NONCE}">`);
  });

  it('keeps the tracking code inert until consent: JSON data, never markup of the page', () => {
    const html = renderLandingPage(input(FULL), NONCE);
    expect(html).not.toContain('<script>window.tracked=1</script>');
    expect(html).toContain(
      '<script type="application/json" id="tracking-code">"\\u003cscript>window.tracked=1\\u003c/script>"</script>',
    );
    expect(html).toContain('id="consent" role="region" aria-label="Cookies" hidden');
    const bare = renderLandingPage(input({ ...FULL, tracking_code: '' }), NONCE);
    expect(bare).not.toContain('id="consent"');
    expect(bare).not.toContain('id="tracking-code"');
  });

  it('is in Spanish at /latam, preferring a key’s _es value, and links the other language', () => {
    const html = renderLandingPage(
      input({ ...FULL, tagline_es: 'Contenido con tu voz' }, { language: 'es', otherLanguageEnabled: true }),
      NONCE,
    );
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('Contenido con tu voz');
    expect(html).toContain('Registrarse');
    expect(html).toContain('Lo que puedes hacer');
    expect(html).toContain('Usamos cookies');
    expect(html).toContain('<a href="/" hreflang="en">English</a>');
    const english = renderLandingPage(input(FULL, { otherLanguageEnabled: true }), NONCE);
    expect(english).toContain('<a href="/latam" hreflang="es">Español</a>');
  });

  it('escapes config texts and drops unsafe links and colours', () => {
    const html = renderLandingPage(
      input({
        title: '<img src=x onerror=alert(1)>',
        high_ticket_offer_name: 'VIP',
        high_ticket_offer_link: 'javascript:alert(1)',
        primary_color: 'red;}</style><script>alert(1)</script>',
        landing_logo_src: '//evil.example.com/x.png',
      }),
      NONCE,
    );
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('--primary:#7048e8');
    expect(html).not.toContain('evil.example.com');
    expect(html).not.toContain('class="offer"');
  });

  it('draws the feature icons only while features_icons_enabled is on', () => {
    expect(renderLandingPage(input(FULL), NONCE).match(/<svg class="icon"/g)).toHaveLength(3);
    expect(renderLandingPage(input(FULL, { featureIcons: false }), NONCE)).not.toContain('<svg');
  });

  it('without sign-up offers sign-in only, and leaves out empty sections', () => {
    const html = renderLandingPage(input({ app_name: 'Acme' }, { signupEnabled: false }), NONCE);
    expect(html).not.toContain('/auth/signup');
    expect(html).toContain('href="/auth/login"');
    expect(html).not.toContain('features-heading');
    expect(html).not.toContain('benefits-heading');
    expect(html).not.toContain('video-heading');
  });

  it('keeps its JavaScript far below 80 KB compressed', () => {
    const script = landingScript(true);
    expect(gzipSync(script).length).toBeLessThan(80 * 1024);
    expect(script.length).toBeLessThan(4 * 1024);
  });

  it('plays uploaded and direct videos in a video element, YouTube and Vimeo in their players', () => {
    expect(videoEmbed('https://youtu.be/dQw4w9WgXcQ')).toBe(
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
    );
    expect(videoEmbed('https://vimeo.com/76979871')).toBe('https://player.vimeo.com/video/76979871');
    expect(videoEmbed('https://videos.example.com/intro.mp4')).toBeNull();
    const html = renderLandingPage(input({ intro_video_url: '/api/files/content/intro.mp4' }), NONCE);
    expect(html).toContain('<video src="/api/files/content/intro.mp4" controls preload="none" playsinline>');
    expect(safeHref('data:text/html,x')).toBeNull();
  });
});
