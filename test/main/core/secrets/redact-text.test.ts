import { describe, expect, it } from 'vitest';
import { REDACTED_SECRET, redactFindings, scanText } from '../../../../main/core/secrets/index.js';
import { generateFixtures } from '../../../fixtures/secrets/generate.js';
import { githubToken, SeededRandom } from '../../../fixtures/secrets/seeded-random.js';

const rng = new SeededRandom(7);

describe('redactFindings', () => {
  it('blanks each value and keeps every other character', () => {
    const a = githubToken(rng, 'ghp');
    const b = githubToken(rng, 'gho');
    const text = `first ${a} then\n  second: ${b}\nend`;
    const findings = scanText(text, { spans: true });
    expect(findings.map((f) => text.slice(...f.span!))).toEqual([a, b]);
    expect(redactFindings(text, findings)).toBe(`first ${REDACTED_SECRET} then\n  second: ${REDACTED_SECRET}\nend`);
  });

  it('gives offsets in the whole text when a long text is scanned in segments', () => {
    const filler = Array.from({ length: 3000 }, (_, i) => `line ${i} of ordinary prose about the deploy`).join('\n');
    const token = githubToken(rng, 'ghp');
    const text = `${filler}\nthe token is ${token}\n${filler}`;
    expect(text.length).toBeGreaterThan(64 * 1024);
    const redacted = redactFindings(text, scanText(text, { spans: true }));
    expect(redacted).toBe(`${filler}\nthe token is ${REDACTED_SECRET}\n${filler}`);
  });

  it('leaves no value of the corpus behind, and no finding in what it leaves', () => {
    const { positives } = generateFixtures();
    for (const p of positives) {
      const findings = scanText(p.text, { spans: true });
      if (findings.length === 0) continue;
      const redacted = redactFindings(p.text, findings);
      for (const f of findings) expect(redacted).not.toContain(p.text.slice(...f.span!));
      expect(scanText(redacted)).toEqual([]);
    }
  });

  it('blanks a whole private key block, not only its first line: plain, CRLF, inside JSON, and cut short', () => {
    const body = rng.base64(300).match(/.{1,70}/g)!;
    const block = (eol: string) => ['-----BEGIN OPENSSH PRIVATE KEY-----', ...body, '-----END OPENSSH PRIVATE KEY-----'].join(eol);
    const cases = [
      [`The deploy logs in with:\n\n${block('\n')}\nThanks.`, `The deploy logs in with:\n\n${REDACTED_SECRET}\nThanks.`],
      [`key:\r\n${block('\r\n')}\r\nok`, `key:\r\n${REDACTED_SECRET}\r\nok`],
      [JSON.stringify({ private_key: `${block('\n')}\n`, id: 7 }), `{"private_key":"${REDACTED_SECRET}\\n","id":7}`],
      [`${block('\n').split('\n').slice(0, 4).join('\n')}\nThe rest was not pasted.`, `${REDACTED_SECRET}\nThe rest was not pasted.`],
    ];
    for (const [text, redacted] of cases) expect(redactFindings(text!, scanText(text!, { spans: true }))).toBe(redacted);
  });

  it('changes nothing without spans (a scan not asked for them)', () => {
    const text = `token ${githubToken(rng, 'ghp')}`;
    expect(redactFindings(text, scanText(text))).toBe(text);
  });
});
