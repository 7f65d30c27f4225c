import { notifyError, useRealtimeEvent } from '@avatar-studio/shared';
import { useRef, useState } from 'react';
import { useEnhanceRequest } from '../api';

/** What the enhance stream has delivered for one enhance_id (events may come before the POST answers). */
interface EnhanceProgress {
  text: string;
  done: boolean;
}

/**
 * Enhance: the improved prompt streams into the input, which is locked meanwhile; events that arrive before the
 * request answers are kept by enhance_id. A failure gives the text before enhancing back.
 */
export function useEnhancePrompt(setText: (next: string | ((prev: string) => string)) => void) {
  /** The enhance_id being shown, once the POST has answered with it. */
  const enhanceId = useRef<string | null>(null);
  /** Stream events by enhance_id, kept for an id the POST has not answered with yet. */
  const early = useRef(new Map<string, EnhanceProgress>());
  const [enhancing, setEnhancing] = useState(false);
  /** The text before enhancing, given back if the enhancement fails. */
  const before = useRef('');

  const finish = () => {
    enhanceId.current = null;
    early.current.clear();
    setEnhancing(false);
  };
  const giveBack = () => {
    setText(before.current);
    finish();
  };

  const request = useEnhanceRequest({
    onStart: (content) => {
      before.current = content;
      early.current.clear();
      setEnhancing(true);
    },
    onAnswer: ({ enhance_id, content }) => {
      const key = String(enhance_id);
      if (content !== null) {
        // Not streamed after all: the improved prompt came whole.
        setText(content);
        finish();
        return;
      }
      const known = early.current.get(key);
      enhanceId.current = key;
      setText(known?.text ?? '');
      if (known?.done) finish();
    },
    onFailed: giveBack,
  });

  useRealtimeEvent('message_stream_enhance', (payload) => {
    const key = String(payload.enhance_id);
    const delta = typeof payload.content === 'string' ? payload.content : '';
    if (enhanceId.current === key) {
      setText((prev) => prev + delta);
    } else if (enhancing && enhanceId.current === null) {
      const known = early.current.get(key) ?? { text: '', done: false };
      early.current.set(key, { ...known, text: known.text + delta });
    }
  });
  useRealtimeEvent('message_stream_enhance_end', (payload) => {
    const key = String(payload.enhance_id);
    const whole = typeof payload.content === 'string' ? payload.content : null;
    if (enhanceId.current === key) {
      if (whole !== null) setText(whole);
      finish();
    } else if (enhancing && enhanceId.current === null) {
      const known = early.current.get(key) ?? { text: '', done: false };
      early.current.set(key, { text: whole ?? known.text, done: true });
    }
  });

  return {
    enhancing,
    enhance: (content: string, model?: string) => request.mutate({ content, model }),
    /** A generation error on the socket while enhancing: the text comes back and the error shows. */
    fail: (message: string) => {
      giveBack();
      notifyError(message);
    },
  };
}
