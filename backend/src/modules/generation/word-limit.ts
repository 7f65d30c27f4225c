/**
 * Cuts a streamed text at a number of words (the generation's reservation), counting words as the ledger does:
 * runs of non-whitespace. Linear: each character is looked at once.
 */
export class WordLimit {
  private words = 0;
  private inWord = false;
  /** True once a piece was cut: the next word would exceed the limit. */
  reached = false;

  constructor(private readonly limit: number) {}

  /** The part of `delta` within the limit; '' once it was reached. */
  take(delta: string): string {
    if (this.reached) return '';
    for (let i = 0; i < delta.length; i++) {
      const space = /\s/.test(delta[i]);
      if (space) this.inWord = false;
      else if (!this.inWord) {
        if (this.words >= this.limit) {
          this.reached = true;
          return delta.slice(0, i);
        }
        this.words++;
        this.inWord = true;
      }
    }
    return delta;
  }
}
