/**
 * The public landing pages (`/` in English, `/latam` in Spanish), rendered on the server from the app config: plain
 * HTML and CSS with one small inline script (cookie consent, tracking after consent, the signed-in hint), so the
 * page paints at once and downloads no application code.
 */
import {
  COOKIE_CONSENT_STORAGE_KEY,
  SIGNED_IN_HINT_COOKIE,
  SPANISH_LANDING_PATH,
} from '@avatar-studio/contracts';
import { LANDING_TEXTS } from './landing-texts';

export type LandingLanguage = 'en' | 'es';

/** What the landing page shows: the public app config values and the switches it depends on. */
export interface LandingInput {
  language: LandingLanguage;
  /** Public app config values by key (missing or empty means unset). */
  config: ReadonlyMap<string, string | null>;
  signupEnabled: boolean;
  /** Whether the other language's page exists (for the language link). */
  otherLanguageEnabled: boolean;
  /** features_icons_enabled: each feature card carries its icon. */
  featureIcons: boolean;
}

/** The three feature cards' icons (inline SVG: nothing more to download), drawn in the primary colour. */
const FEATURE_ICONS = [
  // A spark: the avatars' writing.
  '<path d="M12 3l1.9 5.8L20 10l-6.1 1.9L12 18l-1.9-6.1L4 10l6.1-1.2z"/>',
  // A page: templates and documents.
  '<path d="M7 3h7l5 5v13H7z"/><path d="M14 3v5h5M10 13h6M10 17h6"/>',
  // Rising bars: results.
  '<path d="M4 20h16M7 16v-4M12 16V8M17 16V5"/>',
].map(
  (paths) =>
    `<svg class="icon" viewBox="0 0 24 24" width="32" height="32" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round" stroke-linecap="round" aria-hidden="true">${paths}</svg>`,
);

const DEFAULT_PRIMARY = '#7048e8';
const DEFAULT_ACCENT = '#f76707';
const COLOR = /^#[0-9a-f]{3,8}$/i;
const YOUTUBE_ID = /^[A-Za-z0-9_-]{6,20}$/;
const VIMEO_ID = /^\d{1,12}$/;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** A link or media address the page may use: an https/http URL or a path on this server; anything else is dropped. */
export function safeHref(value: string | null | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  if (text.startsWith('/') && !text.startsWith('//')) return text;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** The embeddable player of a YouTube or Vimeo address, or null for any other address. */
export function videoEmbed(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const host = url.hostname.replace(/^www\./, '').replace(/^m\./, '');
  let youtube: string | null = null;
  if (host === 'youtu.be') youtube = url.pathname.slice(1);
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    youtube = url.pathname.startsWith('/embed/')
      ? url.pathname.slice('/embed/'.length)
      : url.searchParams.get('v');
  }
  if (youtube !== null) {
    return YOUTUBE_ID.test(youtube) ? `https://www.youtube-nocookie.com/embed/${youtube}` : null;
  }
  if (host === 'vimeo.com') {
    const id = url.pathname.slice(1);
    return VIMEO_ID.test(id) ? `https://player.vimeo.com/video/${id}` : null;
  }
  return null;
}

/**
 * The page's Content-Security-Policy: its own inline script by nonce, and what that script adds ('strict-dynamic':
 * the tracking code a staff admin configured, once the visitor accepted cookies); trackers may send beacons and
 * load pixels over https.
 */
export function landingContentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic' https: 'self'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "media-src 'self' https:",
    "font-src 'self' https: data:",
    "connect-src 'self' https:",
    'frame-src https://www.youtube-nocookie.com https://player.vimeo.com https:',
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/**
 * The page's one script. Someone signed in (tokens in localStorage) whose browser lacks the hint cookie gets it
 * and the app (once per tab session, so a refused cookie cannot loop); the banner asks for consent when there is a
 * tracking code; the code runs only after "Accept", each script re-created with this page's nonce.
 */
export function landingScript(spanish: boolean): string {
  return `(function(){
var d=document,w=window,me=d.currentScript,nonce=me&&me.nonce;
function get(s,k){try{return s.getItem(k)}catch(e){return null}}
function put(s,k,v){try{s.setItem(k,v)}catch(e){}}
var ls=w.localStorage,ss=w.sessionStorage;
if(location.pathname==='/'&&(get(ls,'refresh_token')||get(ls,'access_token'))&&!/(^|; )${SIGNED_IN_HINT_COOKIE}=/.test(d.cookie)&&!get(ss,'landing_hint_set')){
put(ss,'landing_hint_set','1');d.cookie='${SIGNED_IN_HINT_COOKIE}=1; path=/; max-age=31536000; SameSite=Lax';location.reload();return}
${spanish ? "d.addEventListener('click',function(e){var a=e.target.closest&&e.target.closest('a[data-app]');if(a)put(ls,'lang','es')});" : ''}
var holder=d.getElementById('tracking-code'),code=holder?JSON.parse(holder.textContent):'',banner=d.getElementById('consent');
function track(){var t=d.createElement('template');t.innerHTML=code;
Array.prototype.forEach.call(t.content.querySelectorAll('script'),function(old){var s=d.createElement('script');
Array.prototype.forEach.call(old.attributes,function(a){if(a.name!=='nonce')s.setAttribute(a.name,a.value)});
s.text=old.text;if(nonce)s.nonce=nonce;s.async=false;old.parentNode.replaceChild(s,old)});
d.body.appendChild(t.content)}
if(!code||!banner)return;
var answer=get(ls,'${COOKIE_CONSENT_STORAGE_KEY}');
if(answer==='accepted'){track();return}
if(answer==='declined')return;
banner.hidden=false;
banner.addEventListener('click',function(e){var choice=e.target.getAttribute&&e.target.getAttribute('data-consent');
if(!choice)return;put(ls,'${COOKIE_CONSENT_STORAGE_KEY}',choice);banner.hidden=true;if(choice==='accepted')track()});
})();`;
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;line-height:1.55;background:#fff}
a{color:var(--primary)}
.wrap{max-width:1120px;margin:0 auto;padding:0 24px}
header{display:flex;align-items:center;justify-content:space-between;gap:16px;padding:18px 0}
.brand{display:flex;align-items:center;gap:10px;font-weight:700;font-size:20px;color:inherit;text-decoration:none}
.brand img{height:36px;width:auto}
nav{display:flex;align-items:center;gap:16px}
.button{display:inline-block;background:var(--primary);color:#fff;border-radius:8px;padding:10px 18px;font-weight:600;text-decoration:none;border:0;cursor:pointer;font-size:16px}
.button.big{padding:14px 26px;font-size:18px}
.button.plain{background:#eef0f3;color:#1f2328}
.hero{display:grid;grid-template-columns:1fr;gap:32px;align-items:center;padding:48px 0 56px}
.hero.with-image{grid-template-columns:1.1fr 1fr}
.hero h1{font-size:clamp(32px,5vw,52px);line-height:1.1;margin:0 0 16px}
.hero p{font-size:20px;color:#4b5563;margin:0 0 28px}
.hero img{width:100%;height:auto;border-radius:16px}
section{padding:40px 0}
h2{font-size:30px;margin:0 0 24px}
.cards{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(auto-fit,minmax(240px,1fr));gap:20px}
.cards li{border:1px solid #e5e7eb;border-radius:12px;padding:22px}
.cards h3{margin:0 0 8px;font-size:19px;color:var(--primary)}
.cards p{margin:0;color:#4b5563}
.cards .icon{color:var(--primary);margin-bottom:8px}
.benefits .cards li{border-left:4px solid var(--accent)}
.benefits .cards h3{color:inherit}
.video{position:relative;aspect-ratio:16/9;border-radius:12px;overflow:hidden;background:#000}
.video iframe,.video video{position:absolute;inset:0;width:100%;height:100%;border:0}
.offer{background:var(--primary);color:#fff;border-radius:16px;padding:36px;text-align:center;margin:24px 0}
.offer h2{margin-bottom:16px}
.offer .button{background:#fff;color:var(--primary)}
footer{border-top:1px solid #e5e7eb;padding:24px 0;color:#6b7280;display:flex;justify-content:space-between;flex-wrap:wrap;gap:12px}
#consent{position:fixed;left:16px;right:16px;bottom:16px;max-width:640px;margin:0 auto;background:#1f2328;color:#fff;border-radius:12px;padding:16px 20px;display:flex;flex-wrap:wrap;align-items:center;gap:12px;box-shadow:0 8px 24px rgba(0,0,0,.25)}
#consent[hidden]{display:none}
#consent p{margin:0;flex:1 1 260px}
@media (max-width:800px){.hero.with-image{grid-template-columns:1fr}nav .signin{display:none}}
`;

/** The full HTML of the landing page in its language; `nonce` marks its one script for the CSP. */
export function renderLandingPage(input: LandingInput, nonce: string): string {
  const { language, config } = input;
  const t = LANDING_TEXTS[language];
  // A Spanish page prefers a key's `_es` value when the app config has one.
  const text = (key: string): string | null => {
    const own = language === 'es' ? config.get(`${key}_es`)?.trim() : null;
    return own || config.get(key)?.trim() || null;
  };
  const e = escapeHtml;
  const appName = text('app_name') || 'Avatar Studio';
  const title = text('title') || appName;
  const tagline = text('tagline');
  const primary = COLOR.test(config.get('primary_color') ?? '')
    ? config.get('primary_color')!
    : DEFAULT_PRIMARY;
  const accent = COLOR.test(config.get('accent_color') ?? '') ? config.get('accent_color')! : DEFAULT_ACCENT;
  const logo = safeHref(config.get('landing_logo_src'));
  const image = safeHref(config.get('landing_image_src'));
  const favicon = safeHref(config.get('favicon_url'));
  const video = safeHref(config.get('intro_video_url'));
  const offerName = text('high_ticket_offer_name');
  const offerLink = safeHref(config.get('high_ticket_offer_link'));
  const tracking = config.get('tracking_code')?.trim() || '';
  // With a landing page on, the sign-in screens sit under /auth.
  const signIn = '/auth/login';
  const signUp = input.signupEnabled ? '/auth/signup' : null;
  const start = signUp ?? signIn;

  const cards = (prefix: 'feature' | 'benefit'): string =>
    [1, 2, 3]
      .map((n) => ({
        title: text(`${prefix}${n}_title`),
        body: text(`${prefix}${n}_description`),
        icon: prefix === 'feature' && input.featureIcons ? FEATURE_ICONS[n - 1] : '',
      }))
      .filter((card) => card.title || card.body)
      .map(
        (card) =>
          `<li>${card.icon}${card.title ? `<h3>${e(card.title)}</h3>` : ''}${card.body ? `<p>${e(card.body)}</p>` : ''}</li>`,
      )
      .join('');
  const features = cards('feature');
  const benefits = cards('benefit');

  let player = '';
  if (video) {
    const embed = videoEmbed(video);
    player = embed
      ? `<iframe src="${e(embed)}" title="${e(t.videoHeading)}" loading="lazy" allow="encrypted-media; picture-in-picture" allowfullscreen></iframe>`
      : `<video src="${e(video)}" controls preload="none" playsinline></video>`;
  }

  const otherLanguage = input.otherLanguageEnabled
    ? `<a href="${language === 'es' ? '/' : SPANISH_LANDING_PATH}" hreflang="${language === 'es' ? 'en' : 'es'}">${e(t.otherLanguage)}</a>`
    : '';
  const pageTitle = tagline ? `${title} | ${tagline}` : title;

  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(pageTitle)}</title>
${tagline ? `<meta name="description" content="${e(tagline)}">` : ''}
${favicon ? `<link rel="icon" href="${e(favicon)}">` : ''}
<style>:root{--primary:${primary};--accent:${accent}}${STYLE}</style>
</head>
<body>
<div class="wrap">
<header>
<a class="brand" href="${language === 'es' ? SPANISH_LANDING_PATH : '/'}">${logo ? `<img src="${e(logo)}" alt="" width="36" height="36">` : ''}<span>${e(appName)}</span></a>
<nav><a class="signin" href="${signIn}" data-app>${e(t.signIn)}</a>${signUp ? `<a class="button" href="${signUp}" data-app>${e(t.signUp)}</a>` : ''}</nav>
</header>
<main>
<section class="hero${image ? ' with-image' : ''}">
<div><h1>${e(title)}</h1>${tagline ? `<p>${e(tagline)}</p>` : ''}<a class="button big" href="${start}" data-app>${e(signUp ? t.getStarted : t.signIn)}</a></div>
${image ? `<img src="${e(image)}" alt="" fetchpriority="high">` : ''}
</section>
${features ? `<section class="features" aria-labelledby="features-heading"><h2 id="features-heading">${e(t.featuresHeading)}</h2><ul class="cards">${features}</ul></section>` : ''}
${player ? `<section aria-labelledby="video-heading"><h2 id="video-heading">${e(t.videoHeading)}</h2><div class="video">${player}</div></section>` : ''}
${benefits ? `<section class="benefits" aria-labelledby="benefits-heading"><h2 id="benefits-heading">${e(t.benefitsHeading)}</h2><ul class="cards">${benefits}</ul></section>` : ''}
${offerName && offerLink ? `<section class="offer"><h2>${e(offerName)}</h2><a class="button big" href="${e(offerLink)}" rel="noopener" target="_blank">${e(t.offerCta)}</a></section>` : ''}
${signUp ? `<section style="text-align:center"><a class="button big" href="${signUp}" data-app>${e(t.signUp)}</a></section>` : ''}
</main>
<footer><span>© ${new Date().getFullYear()} ${e(appName)}. ${e(t.rights)}</span>${otherLanguage}</footer>
</div>
${tracking ? `<div id="consent" role="region" aria-label="Cookies" hidden><p>${e(t.consentText)}</p><button type="button" class="button plain" data-consent="declined">${e(t.consentDecline)}</button><button type="button" class="button" data-consent="accepted">${e(t.consentAccept)}</button></div>` : ''}
${tracking ? `<script type="application/json" id="tracking-code">${jsonForScript(tracking)}</script>` : ''}
<script nonce="${nonce}">${landingScript(language === 'es')}</script>
</body>
</html>
`;
}

/** JSON safe inside a script element: no `<` that could close it. */
function jsonForScript(value: string): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
