/**
 * jsdom plus Node's fetch family (jsdom has none), so tests mock fetch at the network boundary and the real
 * API client runs. Relative URLs resolve against the page, as in a browser.
 */
const { TestEnvironment } = require('jest-environment-jsdom');

class FrontendEnvironment extends TestEnvironment {
  async setup() {
    await super.setup();
    const g = this.global;
    const base = () => g.location.href;
    const absolute = (input) =>
      typeof input === 'string' || input instanceof URL || input instanceof g.URL
        ? new URL(String(input), base()).toString()
        : input;
    class BrowserLikeRequest extends Request {
      constructor(input, init) {
        super(absolute(input), init);
      }
    }
    g.Request = BrowserLikeRequest;
    g.Response = Response;
    g.Headers = Headers;
    g.fetch = (input, init) => fetch(absolute(input), init);
    g.ReadableStream = ReadableStream;
    g.TextEncoder = TextEncoder;
    g.TextDecoder = TextDecoder;
    g.structuredClone = structuredClone;
    // Node's Request only accepts Node's AbortSignal and Blob; use them everywhere in the test page.
    g.AbortController = AbortController;
    g.AbortSignal = AbortSignal;
    g.Blob = Blob;
    g.File = File;
    g.FormData = browserLikeFormData(g.FormData);
    g.BroadcastChannel = BroadcastChannel;
  }
}

/**
 * Node's FormData (what Node's Request takes), built from a form element as a browser's is: React builds one from
 * the submitted form when a submit handler starts a transition, and Node's own constructor refuses any argument.
 * The form's entries are read by jsdom's FormData, which knows the page's forms.
 */
function browserLikeFormData(PageFormData) {
  return class BrowserLikeFormData extends FormData {
    constructor(form, submitter) {
      super();
      if (form === undefined) return;
      for (const [name, value] of new PageFormData(form, submitter ?? undefined)) this.append(name, value);
    }
  };
}

module.exports = FrontendEnvironment;
