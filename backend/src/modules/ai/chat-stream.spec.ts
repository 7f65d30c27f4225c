import { APIError } from 'openai';
import { chatCompletionChunks } from './chat-stream';

/** The body as these byte pieces, however the network happened to cut it. */
async function* pieces(...parts: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === 'string' ? new TextEncoder().encode(part) : part;
}

const chunk = (content: string, finish: string | null = null) =>
  JSON.stringify({
    id: 'c',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { content }, finish_reason: finish }],
  });

async function read(...parts: (string | Uint8Array)[]): Promise<string[]> {
  const out: string[] = [];
  for await (const c of chatCompletionChunks(pieces(...parts), new Headers()))
    out.push(`${c.choices[0]?.delta?.content ?? ''}|${c.choices[0]?.finish_reason ?? ''}`);
  return out;
}

describe('chatCompletionChunks', () => {
  it('reads events cut anywhere, with LF, CRLF or CR line ends, until [DONE]', async () => {
    const body = `data: ${chunk('Hel')}\n\ndata: ${chunk('lo')}\r\n\r\ndata: ${chunk('!', 'stop')}\r\rdata: [DONE]\n\n`;
    const whole = await read(body);
    expect(whole).toEqual(['Hel|', 'lo|', '!|stop']);
    // Every cut of the body into two pieces, a CRLF split between them included, reads the same.
    for (let at = 1; at < body.length; at++)
      expect(await read(body.slice(0, at), body.slice(at))).toEqual(whole);
  });

  it('keeps multi-byte characters split between pieces', async () => {
    const bytes = new TextEncoder().encode(`data: ${chunk('añ😀')}\n\n`);
    const at = bytes.indexOf(0xf0) + 2;
    expect(await read(bytes.slice(0, at), bytes.slice(at))).toEqual(['añ😀|']);
  });

  it('joins the data lines of one event, and skips comments and other fields', async () => {
    const json = chunk('x');
    // Two data lines join with a newline, which JSON allows between tokens: cut after a comma.
    const cut = json.indexOf(',') + 1;
    const body = `: keep-alive\nevent: message\nid: 7\nretry: 10\ndata:${json.slice(0, cut)}\ndata: ${json.slice(cut)}\n\n`;
    expect(await read(body)).toEqual(['x|']);
  });

  it('ignores what follows [DONE], and counts an event the server did not close with a blank line', async () => {
    expect(await read(`data: [DONE]\n\ndata: ${chunk('late')}\n\n`)).toEqual([]);
    expect(await read(`data: ${chunk('end', 'stop')}`)).toEqual(['end|stop']);
    expect(await read(`data: ${chunk('a')}\n\ndata: ${chunk('b')}\r`)).toEqual(['a|', 'b|']);
  });

  it('throws the SDK error an event carrying an error stands for', async () => {
    const failure = read(
      `data: ${chunk('a')}\n\ndata: ${JSON.stringify({ error: { message: 'overloaded', code: 'server_busy' } })}\n\n`,
    );
    await expect(failure).rejects.toBeInstanceOf(APIError);
    await expect(failure).rejects.toMatchObject({ code: 'server_busy', status: undefined });
  });
});
