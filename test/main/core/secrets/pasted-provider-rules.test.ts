import { describe, expect, it } from 'vitest';
import { scanText } from '../../../../main/core/secrets/index.js';
import { fromShape } from '../../../fixtures/secrets/peer-vectors.js';
import { SeededRandom } from '../../../fixtures/secrets/seeded-random.js';

// The rules added for trufflehog's vectors of the providers people paste most (bench/peer-vectors/trufflehog.vectors).
// Keys are generated from their published shapes at test time, never committed as literals.
const rng = new SeededRandom(131);
const shape = (s: string) => fromShape(s, rng);
const hex = (n: number) => shape(`[a-f0-9]{${n}}`);
const rulesIn = (text: string) => scanText(`# Deploy notes\n\n${text}\n`).map((f) => f.rule);

describe('rules for the providers people paste', () => {
  it.each([
    ['sendgrid-api-token', () => `SENDGRID_API_KEY=SG.${shape('[A-Za-z0-9_-]{21}')}.${shape('[A-Za-z0-9_-]{49}')}`],
    ['mailgun-private-api-token', () => `mailgun key-${shape('[a-z]{10}[0-9]{2}[a-z0-9]{20}')}`],
    ['mailgun-api-key', () => `MAILGUN_API_KEY=${hex(32)}-${hex(8)}-${hex(8)}`],
    ['dockerhub-pat', () => `DOCKER_ORG_TOKEN=dckr_oat_${shape('[A-Za-z0-9_-]{32}')}`],
    ['doppler-api-token', () => `DOPPLER_TOKEN=dp.st.${shape('[A-Za-z0-9]{44}')}`],
    ['planetscale-token', () => `password: pscale_pw_${shape('[A-Za-z0-9_=]{43}')}`],
    ['airtable-personal-access-token', () => `AIRTABLE_TOKEN=pat${shape('[A-Za-z0-9]{14}')}.${hex(64)}`],
    ['plaid-access-token', () => `access_token: access-production-${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`],
    ['stripe-intent-client-secret', () => `clientSecret: "pi_${shape('[A-Za-z0-9]{24}')}_secret_${shape('[A-Za-z0-9]{25}')}"`],
    ['cloudflare-scannable-token', () => `CF_TOKEN=cfut_${shape('[A-Za-z0-9]{40}')}${hex(8)}`],
    ['atlassian-admin-api-key', () => `Authorization: Bearer ATCTT3xFfG${shape('[A-Za-z0-9_=-]{180}')}`],
    ['jira-legacy-api-token', () => `JIRA_API_TOKEN=${shape('[A-Z][a-z][0-9][A-Za-z0-9]{21}')}`],
    ['azure-ad-client-secret', () => `client-secret: -${shape('[a-z]{2}')}8Q~${shape('[A-Za-z0-9]{34}')}`],
    ['gcp-service-account', () => `{"credentials":"{\\n  \\"type\\": \\"service_account\\",\\n  \\"private_key_id\\": \\"${hex(40)}\\"\\n}"}`],
    ['azure-ad-client-secret-legacy', () => `clientId = "${rng.uuid()}"\nclientSecret = "${shape('[A-Z][a-z][0-9]~[A-Za-z0-9]{28}')}"`],
    ['xai-api-key', () => `XAI_API_KEY=xai-${shape('[A-Za-z0-9]{80}')}`],
    ['jenkins-credential-secret', () => `<secret>{AQAAABAAA${shape('[A-Za-z0-9+/]{120}')}=}</secret>`],
  ])('%s finds its token', (rule, make) => {
    expect(rulesIn(make())).toContain(rule);
  });

  it.each([
    ['a Mailgun-style key of letters only (a name)', 'mailgun-private-api-token', () => `key-${shape('[a-z]{32}')}`],
    ['32-8-8 hex without the name Mailgun', 'mailgun-api-key', () => `build ${hex(32)}-${hex(8)}-${hex(8)}`],
    ['a Docker org token one character short', 'dockerhub-pat', () => `dckr_oat_${shape('[A-Za-z0-9]{31}')}`],
    ['an Airtable token with a dash in its hex', 'airtable-personal-access-token', () => `pat${shape('[A-Za-z0-9]{14}')}.${hex(30)}-${hex(33)}`],
    ['a Cloudflare token one character short', 'cloudflare-scannable-token', () => `cfut_${shape('[A-Za-z0-9]{47}')}`],
    ['a 24-letter word after Jira', 'jira-legacy-api-token', () => `jira ${shape('[a-z]{24}')}`],
    ['an old Azure-shaped password with no client or tenant id near', 'azure-ad-client-secret-legacy', () => `clientSecret = "${shape('[A-Z][a-z][0-9]~[A-Za-z0-9]{28}')}"`],
  ])('does not take %s for %s', (_name, rule, make) => {
    expect(rulesIn(make())).not.toContain(rule);
  });

  it.each([
    ['a Doppler token of an unknown kind', () => `dp.xx.${shape('[A-Za-z0-9]{44}')}`],
    ['a Plaid token whose UUID is not hex', () => `access-sandbox-g33z362e-fha8-43a7-au28-7kf56z1acl32`],
    ['a Stripe PaymentIntent id under a token name', () => `stripepaymentintent_token = 'pi_${shape('[A-Za-z0-9]{24}')}'`],
    ['an xAI key cut short, under a token name', () => `xai_token = 'xai-${shape('[A-Za-z0-9]{41}')}'`],
    ['a Jenkins secret marker with nothing after it', () => '<secret>{AQAAABAAA}</secret>'],
    ['a service-account file whose private key is an example', () => `{"private_key_id": "${hex(40)}", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDE/XlaMP419pkUEXAMPLE=\\n-----END PRIVATE KEY-----\\n"}`],
    ['a token that says it is fake', () => `twilio token - 'k7JX${shape('[A-Za-z0-9]{8}')}thisisfake${shape('[A-Za-z0-9]{10}')}'`],
    ['a user:token pair whose token is typed as runs', () => 'Using Key=myuser:ATBB123abcDEF456ghiJKL789mnoPQR'],
    ['a token name holding an @ reference', () => `sonar token = '@${shape('[a-z0-9]{40}')}'`],
    ['a URL whose password is words then "password"', () => 'mongodb://myDBReader:D1fficultP%40ssw0rd@10.20.30.40:27017'],
    ['an OpenRouter key cut short, under a key name', () => `Using Key=sk-or-v1-${shape('[A-Za-z0-9]{31}')}`],
    ['a token typed as the alphabet with alternating case', () => "resend token = 're_1234abcd_aBcDeFgHiJkLmNoPqRsTuVwX'"],
    ['a URL whose user is typed filler', () => 'mongodb://AKIAAAAAAAAAAAA:t9t2mawssecretkey@localhost:27017/'],
  ])('ignores %s', (_name, make) => {
    expect(rulesIn(make())).toEqual([]);
  });

  it('still finds a short real password in a connection string', () => {
    expect(rulesIn(`mongodb://root:${shape('[a-z0-9]{8}')}@fastgpt-mongo.svc:27017/`)).toContain('database-connection-string');
  });
});
