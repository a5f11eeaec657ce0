import { scanText } from '../main/core/secrets/index.js';
import { describePeerScore, forms, rate, scorePeers, type Form } from '../test/fixtures/secrets/peer-score.js';
import { peers } from '../test/fixtures/secrets/peer-vectors.js';
import { line, type Bench } from './harness.js';

/**
 * `secrets-peers` (docs/security.md#secrets-scanning): the scanner on other scanners' own published test
 * vectors (bench/peer-vectors/), each placed in a markdown note in six forms: found % over their
 * positives, false-alarm % over their negatives (their placeholders and documented examples counted as
 * negatives), overall, by peer and by form; the worst kinds each way go to stderr for people.
 */
const slug = (form: Form) => form.replace(/ /g, '-');

const bench: Bench = {
  name: 'secrets-peers',
  async run() {
    const score = scorePeers((text) => scanText(text));
    process.stderr.write(`${describePeerScore(score).join('\n')}\n`);
    const worst = score.byKind
      .filter((k) => k.found.hits < k.found.trials)
      .sort((a, b) => rate(a.found) - rate(b.found))
      .slice(0, 15)
      .map((k) => ({ kind: `${k.peer} ${k.kind}`, found: k.found.hits, trials: k.found.trials }));
    return [
      line('secrets-peers', 'found', '%', 100 * rate(score.found), null, { trials: score.found.trials, vectors: score.counts }),
      line('secrets-peers', 'false-alarms', '%', 100 * rate(score.falseAlarms), null, { trials: score.falseAlarms.trials }),
      ...peers.flatMap((p) => [
        line('secrets-peers', `found:${p}`, '%', 100 * rate(score.byPeer[p].found), null, { trials: score.byPeer[p].found.trials }),
        line('secrets-peers', `false-alarms:${p}`, '%', 100 * rate(score.byPeer[p].falseAlarms), null, { trials: score.byPeer[p].falseAlarms.trials }),
      ]),
      ...forms.flatMap((f) => [
        line('secrets-peers', `found:${slug(f)}`, '%', 100 * rate(score.byForm[f].found), null, { trials: score.byForm[f].found.trials }),
        line('secrets-peers', `false-alarms:${slug(f)}`, '%', 100 * rate(score.byForm[f].falseAlarms), null, { trials: score.byForm[f].falseAlarms.trials }),
      ]),
      line('secrets-peers', 'worst-kinds', '%', 100 * (worst[0] ? worst[0].found / worst[0].trials : 1), null, { worst }),
    ];
  },
};

export default bench;
