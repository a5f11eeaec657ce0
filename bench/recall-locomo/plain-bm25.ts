/**
 * The baseline recall-locomo compares against: textbook Okapi BM25 (k1 1.2, b 0.75, Robertson–Spärck
 * Jones idf floored at 0) over each file's whole text, lower-cased words of letters and digits, no
 * stemming, no stop words, no fields. Deliberately plain: it says what the product's ranking adds.
 */
const K1 = 1.2;
const B = 0.75;

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

export class PlainBm25 {
  private readonly postings = new Map<string, Map<number, number>>();
  private readonly lengths: number[] = [];
  private readonly ids: string[] = [];

  constructor(files: readonly { relPath: string; text: string }[]) {
    for (const f of files) {
      const doc = this.ids.push(f.relPath) - 1;
      const tokens = words(f.text);
      this.lengths.push(tokens.length);
      for (const t of tokens) {
        let p = this.postings.get(t);
        if (!p) this.postings.set(t, (p = new Map()));
        p.set(doc, (p.get(doc) ?? 0) + 1);
      }
    }
  }

  rank(query: string, limit: number): string[] {
    const n = this.ids.length;
    const avg = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, n);
    const scores = new Map<number, number>();
    for (const term of new Set(words(query))) {
      const p = this.postings.get(term);
      if (!p) continue;
      const idf = Math.max(0, Math.log((n - p.size + 0.5) / (p.size + 0.5)));
      for (const [doc, tf] of p) {
        const norm = tf + K1 * (1 - B + (B * this.lengths[doc]!) / avg);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (K1 + 1)) / norm);
      }
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit)
      .map(([doc]) => this.ids[doc]!);
  }
}
