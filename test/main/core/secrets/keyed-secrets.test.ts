import { describe, expect, it } from 'vitest';
import { scanText } from '../../../../main/core/secrets/index.js';
import { fromShape } from '../../../fixtures/secrets/peer-vectors.js';
import { SeededRandom } from '../../../fixtures/secrets/seeded-random.js';

const rng = new SeededRandom(77);
const shape = (s: string) => fromShape(s, rng);
const flagged = (text: string) => scanText(`# Notes\n\n${text}\n`).length > 0;

describe('shapeless secrets judged by the name next to them', () => {
  it.each([
    ['a UUID under a token name', () => `HUMIO_INGEST_TOKEN=${rng.uuid()}`],
    ['a UUID under a camel-case token name', () => `hubspotToken := "${rng.uuid()}"`],
    ['a UUID passed to a setter', () => `utils.GetEnvOrDefault("api_token", "${rng.uuid()}")`],
    ['an npm legacy token, a UUID', () => `//registry.npmjs.org/:_authToken=${rng.uuid()}`],
    ['a long number under a token name', () => `discord_token: "${shape('[1-9][0-9]{17}')}"`],
    ['a token name after an upper-case run', () => `ETSYToken := "${shape('[a-z0-9]{24}')}"`],
    ['a base64 user:password under an auth name', () => `"user_auth": "${Buffer.from(`deploy:${rng.password()}`).toString('base64')}"`],
    ['creds', () => `creds = ${shape('[A-Za-z0-9]{30}')}`],
    ['a *String name', () => `mySecretString=${shape('[A-Za-z0-9]{30}')}`],
    ['a JSON name/value pair', () => `{"name": "authToken", "value": "${shape('[a-f0-9]{32}')}"}`],
    ['a quoted value after "token -"', () => `twitch token - '${shape('[a-z0-9]{30}')}'`],
    ['a short hex key', () => `kucoin_TOKEN ?= "${shape('[a-f0-9]{24}')}"`],
  ])('finds %s', (_name, make) => {
    expect(flagged(make())).toBe(true);
  });

  it.each([
    ['a client id that is a UUID', () => `clientId = "${rng.uuid()}"`],
    ['a map entry keyed by a UUID', () => `{ key: '${rng.uuid()}', value: 'Americas' }`],
    ['a page token that is a number', () => `next_page_token = "${shape('[1-9][0-9]{17}')}"`],
    ['a CSRF token', () => `csrf-token=${shape('[A-Za-z0-9+/]{86}')}==`],
    ['a database primary key', () => `primaryKey=${shape('[A-Za-z0-9]{30}')}`],
    ['a bucket key', () => '"bucket_key": "SalesResults-1.2"'],
    ['a publishable key', () => `token = 'live_pub_${shape('[a-f0-9]{31}')}'`],
    ['a value with a query mark', () => `jira key = '${shape('[A-Za-z0-9]{5}')}?${shape('[A-Za-z0-9]{18}')}'`],
    ['a capitalised code name', () => 'token:"clm72199:AgencyIdentificationCodeContentType"'],
    ['an XML entry named by its key attribute', () => '<entry key="jetbrains.mps.v8_elimination" value="executed" />'],
    ['a base64 test:test under _auth', () => `//registry.npmjs.org/:_auth=${Buffer.from('test:test').toString('base64')}`],
    ['a base64 phrase', () => `//registry.npmjs.org/:_auth=${Buffer.from('Hello World>').toString('base64')}`],
    ['a value of short ascending runs', () => '//registry.npmjs.org/:_authToken=abc123def456'],
    ['a value repeating a short unit', () => 'aws_secret: a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4'],
    ['a word with a number as a URL password', () => 'https://user123:token123@test.jfrog.io/artifactory/api/foo'],
    ['a password of one repeated digit', () => 'https://user:1111@service.com/api'],
    ['a word after "token -"', () => 'the deploy token - rotated every quarter'],
  ])('ignores %s', (_name, make) => {
    expect(flagged(make())).toBe(false);
  });
});

describe('multi-line and encoded secrets', () => {
  const der = (body: string) => `MII${shape('[A-Za-z0-9+/]{3}')}${body}${shape('[A-Za-z0-9+/]{300}')}`;

  it('finds a base64 DER private key without its PEM lines, not a certificate', () => {
    expect(flagged(`key material:\n${der('IBAAKCAQEA')}`)).toBe(true);
    expect(flagged(`ca bundle:\n${der('CCAl+gAwIBAgI')}`)).toBe(false);
  });

  it('finds a Kubernetes Secret value that decodes to key bytes, not one that decodes to a placeholder', () => {
    const secret = (value: string) => `apiVersion: v1\nkind: Secret\ndata:\n  signing-key: ${value}\n`;
    const keyBytes = Buffer.concat([Buffer.alloc(8), rng.bytes(40)]).toString('base64');
    expect(flagged(secret(keyBytes))).toBe(true);
    expect(flagged(secret(Buffer.from('changeme').toString('base64')))).toBe(false);
  });
});
