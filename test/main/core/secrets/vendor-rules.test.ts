import { describe, expect, it } from 'vitest';
import { scanText } from '../../../../main/core/secrets/index.js';
import { base62, crc32, hasCrc32Suffix, isPypiMacaroon } from '../../../../main/core/secrets/checksums.js';
import { fromShape } from '../../../fixtures/secrets/peer-vectors.js';
import { SeededRandom } from '../../../fixtures/secrets/seeded-random.js';

// Keys are generated from their published shapes at test time, never committed as literals.
const rng = new SeededRandom(31);
const shape = (s: string) => fromShape(s, rng);
const rulesIn = (text: string) => scanText(`# Deploy notes\n\n${text}\n`).map((f) => f.rule);

describe('vendor rules added for the peers’ vectors', () => {
  it.each([
    ['onepassword-secret-key', () => `my 1Password secret key is ${shape('A3-[A-Z0-9]{6}-[A-Z0-9]{11}-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}')}`],
    ['onepassword-service-account-token', () => `export OP_SERVICE_ACCOUNT_TOKEN=ops_eyJ${shape('[A-Za-z0-9+/]{300}')}`],
    ['castai-api-key', () => `CASTAI_API_KEY=castai_v1_${shape('[a-f0-9]{64}')}_${shape('[a-f0-9]{8}')}`],
    ['claude-code-oauth-token', () => `CLAUDE_CODE_OAUTH_TOKEN=sk-ant-oat01-${shape('[A-Za-z0-9_-]{95}')}`],
    ['claude-code-session-url', () => `join me at https://claude.ai/code/session_${shape('[A-Za-z0-9]{24}')}`],
    ['openrouter-api-key', () => `OPENROUTER_API_KEY=sk-or-v1-${shape('[a-f0-9]{64}')}`],
    ['sourcegraph-access-token', () => `src token sgp_${shape('[a-f0-9]{16}')}_${shape('[a-f0-9]{40}')}`],
    ['openshift-user-token', () => `oc login --token=sha256~${shape('[A-Za-z0-9_-]{43}')}`],
    ['vault-batch-token', () => `VAULT_TOKEN=hvb.${shape('[A-Za-z0-9_-]{150}')}`],
    ['easypost-api-token', () => `EZAK${shape('[A-Za-z0-9]{54}')}`],
    ['mercadopago-access-token', () => `MP_TOKEN=APP_USR-${shape('[0-9]{16}')}-${shape('[0-9]{6}')}-${shape('[a-f0-9]{32}')}-${shape('[0-9]{9}')}`],
    ['intra42-client-secret', () => `s-s4t2ud-${shape('[a-f0-9]{64}')}`],
    ['adobe-client-secret', () => `ADOBE_CLIENT_SECRET=p8e-${shape('[A-Za-z0-9]{32}')}`],
    ['facebook-access-token', () => `facebook app token ${shape('[1-9][0-9]{14}')}|${shape('[A-Za-z0-9_-]{27}')}`],
    ['facebook-page-access-token', () => `EAAM${shape('[A-Za-z0-9]{180}')}`],
    ['flyio-macaroon-token', () => `FLY_API_TOKEN="FlyV1 fm2_${shape('[A-Za-z0-9+/]{200}')}"`],
    ['launchdarkly-key', () => `sdk-${shape('[a-f0-9]{8}')}-${shape('[a-f0-9]{4}')}-${shape('[a-f0-9]{4}')}-${shape('[a-f0-9]{4}')}-${shape('[a-f0-9]{12}')}`],
    ['sidekiq-secret', () => `BUNDLE_ENTERPRISE__CONTRIBSYS__COM: ${shape('[a-f0-9]{8}')}:${shape('[a-f0-9]{8}')}`],
    ['slack-legacy-short-token', () => `"refresh_token": "xoxr-${shape('[a-z0-9]{12}')}7"`],
    ['telegram-bot-token-near-name', () => `telegram bot: ${shape('[0-9]{8}')}:A${shape('[A-Za-z0-9_-]{34}')}`],
    ['datafactory-shir-token', () => `IR@${shape('[a-f0-9]{8}')}-${shape('[a-f0-9]{4}')}-${shape('[a-f0-9]{4}')}-${shape('[a-f0-9]{4}')}-${shape('[a-f0-9]{12}')}@adf-app@we@${shape('[A-Za-z0-9+/]{43}')}=`],
  ])('%s finds its token', (rule, make) => {
    expect(rulesIn(make())).toContain(rule);
  });

  it.each([
    ['a name that happens to start like a Slack token', '[xoxa-nyc](https://github.com/xoxa-nyc/xoxa-nyc.github.io)'],
    ['a Telegram-shaped id with no Telegram in sight', `ticket ${shape('[0-9]{8}')}:A${shape('[A-Za-z0-9_-]{34}')}`],
    ['a Telegram bot id too short for a bot', `telegram_api_token = "${shape('[0-9]{4}')}:A${shape('[a-z0-9_-]{34}')}"`],
    ['a Teams webhook one character short', `https://acme.webhook.office.com/webhookb2/${shape('[a-z0-9-]{36}')}@${shape('[a-z0-9-]{36}')}/IncomingWebhook/${shape('[a-z0-9]{32}')}/${shape('[a-z0-9-]{35}')}`],
    ['an OpenAI-looking key without its marker', `sk-proj-${shape('[A-Za-z0-9]{20}')}T4BlbkFJ${shape('[A-Za-z0-9]{20}')}`],
    ['a Sumo Logic name that is code', 'sumOfExposures = sumOfExposures;'],
    ['Google’s own Firebase sample key', `apiKey: "${['AIzaSyAnLA7Nfe', 'LquW1tJFpx_eQCxoX-oo6YyIs'].join('')}"`],
    ['a variant of the AWS guide’s secret key', `AWS_SECRET_ACCESS_KEY = ${['wJalrXUtnFEMI/K7MDENG/bPxRfiCY', 'SECRETSKEY'].join('')}`],
    ['a webhook of typed filler', 'https://hooks.slack.com/services/T11111AA/BAAAA111A/qKirRWalryBGqKirRWalryBG'],
    ['hex magic words as a password', 'https://cafebabe:deadbeef@gems.contribsys.com/'],
  ])('ignores %s', (_name, text) => {
    expect(rulesIn(text)).toEqual([]);
  });
});

describe('checksums that prove a token real', () => {
  const body = (chars: string) => chars + base62(crc32(chars), 6);

  it('validates GitHub’s CRC32 suffix on a published token and rejects a changed character', () => {
    // A revoked token that scanners' docs and tests publish; assembled so no whole token sits in the file.
    const published = ['ghp_wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO', '0pINUx'].join('');
    expect(hasCrc32Suffix(published)).toBe(true);
    expect(hasCrc32Suffix(published.replace('wWPw', 'wWPx'))).toBe(false);
  });

  it('reports a checksummed GitHub token even where its body looks typed by hand', () => {
    const typed = `ghp_${body('aaaaaaaB3kD9xQ2mT7vL1pR8sW4nZ6')}`;
    expect(rulesIn(`GITHUB_TOKEN=${typed}`)).toEqual(['github-pat']);
    expect(rulesIn(`GITHUB_TOKEN=ghp_aaaaaaaB3kD9xQ2mT7vL1pR8sW4nZ6000000`)).toEqual([]);
  });

  it('parses a PyPI macaroon and reports it even where its body repeats', () => {
    const field = (type: number, data: Buffer) => Buffer.concat([Buffer.from([type, data.length]), data]);
    const macaroon = Buffer.concat([
      Buffer.from([2]),
      field(1, Buffer.from('pypi.org')),
      field(2, Buffer.alloc(48, 0x61)),
      Buffer.from([0, 0]),
      field(6, Buffer.alloc(32, 0x62)),
    ]);
    const token = `pypi-${macaroon.toString('base64url')}`;
    expect(isPypiMacaroon(token)).toBe(true);
    expect(isPypiMacaroon(`pypi-AgEIcHlwaS5vcmc${shape('[a-f0-9]{64}')}`)).toBe(false);
    expect(rulesIn(`password = ${token}`)).toContain('pypi-upload-token');
  });
});
