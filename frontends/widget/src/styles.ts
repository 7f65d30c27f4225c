/**
 * The widget's own styles, inside its shadow root, where no rule of the page applies. What the page could still
 * pass down is inheritance through the snippet's div (a page rule on `*` with !important beats `:host`), so our
 * own root element starts again from `all: initial`. Nothing here can reach the page.
 */
export const STYLES = `
:host{all:initial;display:block}
.frame{all:initial;display:block;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:15px;line-height:1.45;color:#1a1a1a}
*{box-sizing:border-box}
.launcher{width:60px;height:60px;border-radius:50%;border:0;padding:0;cursor:pointer;background:var(--accent);color:var(--on-accent);display:flex;align-items:center;justify-content:center;box-shadow:0 4px 14px rgba(0,0,0,.25);overflow:hidden}
.launcher img{width:100%;height:100%;object-fit:cover}
.launcher svg{width:28px;height:28px}
.launcher:focus-visible,button:focus-visible,textarea:focus-visible{outline:3px solid #1f5fd1;outline-offset:2px}
.panel{position:absolute;right:0;bottom:76px;width:min(370px,calc(100vw - 40px));height:min(540px,calc(100vh - 120px));background:#fff;border-radius:14px;box-shadow:0 8px 30px rgba(0,0,0,.25);display:flex;flex-direction:column;overflow:hidden}
.panel[hidden]{display:none}
.header{background:var(--accent);color:var(--on-accent);padding:12px 14px;display:flex;align-items:center;gap:8px}
.header h2{font-size:16px;font-weight:600;margin:0;flex:1;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.close{background:transparent;border:0;color:inherit;font-size:22px;line-height:1;cursor:pointer;width:32px;height:32px;border-radius:6px}
.log{flex:1;overflow-y:auto;padding:14px;display:flex;flex-direction:column;gap:10px;background:#f6f7f9;margin:0}
.msg{max-width:85%;padding:8px 12px;border-radius:12px;white-space:pre-wrap;word-wrap:break-word}
.msg.user{align-self:flex-end;background:var(--accent);color:var(--on-accent)}
.msg.assistant{align-self:flex-start;background:#fff;border:1px solid #dcdfe4;color:#1a1a1a}
.who{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.hint{color:#555;align-self:center;font-size:14px;margin:0}
.notice{padding:10px 14px;background:#fff4e5;color:#663c00;font-size:14px}
.notice:empty{display:none}
form{display:flex;gap:8px;padding:10px;border-top:1px solid #dcdfe4;background:#fff}
textarea{flex:1;resize:none;font:inherit;padding:8px 10px;border:1px solid #8a919c;border-radius:8px;height:42px;max-height:120px;color:#1a1a1a;background:#fff}
.send{border:0;border-radius:8px;padding:0 16px;font:inherit;font-weight:600;cursor:pointer;background:var(--accent);color:var(--on-accent)}
.send:disabled{opacity:.6;cursor:default}
`;
