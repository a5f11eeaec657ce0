import { describe, expect, it } from 'vitest';
import { describeFinding, scanText, secretRules } from '../../../../main/core/secrets/index.js';
import { generateFixtures } from '../../../fixtures/secrets/generate.js';
import { githubToken, SeededRandom } from '../../../fixtures/secrets/seeded-random.js';

const rng = new SeededRandom(2026);
const token = () => githubToken(rng, 'ghp');

describe('scanText', () => {
  it('reports the rule, the 1-based line and column of a secret', () => {
    const text = `# notes\n\nthe CI token is ${token()} for now`;
    expect(scanText(text)).toEqual([{ rule: 'github-pat', line: 3, column: 17 }]);
  });

  it('never carries the matched value in a finding', () => {
    const { positives } = generateFixtures();
    for (const p of positives) {
      const serialized = JSON.stringify(scanText(p.text));
      const secretLine = p.text.split('\n')[p.line! - 1]!;
      // Any run of 12+ key-like characters from the secret's line would be part of the value.
      for (const run of secretLine.match(/[A-Za-z0-9_+/=-]{12,}/g) ?? []) expect(serialized).not.toContain(run);
    }
  });

  it('describes a finding as rule and line for messages to the model', () => {
    expect(describeFinding({ rule: 'github-pat', line: 4 })).toBe('rule github-pat on line 4');
  });

  it('reports several secrets in one text in line order', () => {
    const text = [`AWS_ACCESS_KEY_ID=AKIA${rng.chars('ABCDEFGHJKLMNPQRSTUVWXYZ234567', 16)}`, 'nothing here', `token ${token()}`].join('\n');
    expect(scanText(text).map((f) => [f.rule, f.line])).toEqual([
      ['aws-access-token', 1],
      ['github-pat', 3],
    ]);
  });

  it.each([
    ['a Spring property', (pw: string) => `spring.datasource.password=${pw}`],
    ['a JDBC query parameter', (pw: string) => `jdbc:mysql://db:3306/app?user=app&password=${pw}`],
    ['an ADO.NET connection string', (pw: string) => `Server=tcp:db.internal,1433;Database=app;User ID=app;Password=${pw};`],
    ['a compose environment list', (pw: string) => `    - POSTGRES_PASSWORD=${pw}`],
    ['a JSON field', (pw: string) => `{"user": "etl", "password": "${pw}"}`],
    ['a database URL', () => `DATABASE_URL=postgres://etl:${rng.urlPassword()}@db.internal:5432/etl`],
  ])('finds a generated password in %s', (_name, template) => {
    expect(scanText(template(rng.password()))).toHaveLength(1);
  });

  it('keeps the specific rule and drops the catch-all for the same value', () => {
    const findings = scanText(`GITHUB_TOKEN=${token()}`);
    expect(findings.map((f) => f.rule)).toEqual(['github-pat']);
  });

  it.each([
    ['a template variable', 'api_key: ${API_KEY}'],
    ['a mustache placeholder', 'token: "{{ secrets.TOKEN }}"'],
    ['an angle-bracket placeholder', 'OPENAI_API_KEY=<your-key>'],
    ['changeme', 'password: changeme'],
    ['a masked value', 'password: ********'],
    ['a redacted key', 'ANTHROPIC_API_KEY=sk-ant-****'],
    ['an x-filled token', `GITHUB_TOKEN=ghp_${'x'.repeat(36)}`],
    ['a repeated body', `STRIPE_SECRET_KEY=sk_live_${'a'.repeat(24)}`],
    ['an ascending body', `SLACK_BOT_TOKEN=${['xoxb', '1234567890', '1234567890', 'abcdefghijklmnopqrstuvwx'].join('-')}`],
    ['a public key line', `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${rng.base64(32)} me@laptop`],
    ['a URL with a user and no password', 'git clone https://dana@github.com/acme/site.git'],
    ['a URL with a password placeholder', 'postgres://app:password@localhost:5432/app'],
    ['an env reference', 'password = os.environ["DB_PASSWORD"]'],
    ['a git SHA', `commit ${rng.chars('0123456789abcdef', 40)}`],
    ['a UUID id', `request_id=${rng.uuid()}`],
  ])('ignores %s', (_name, text) => {
    expect(scanText(text)).toEqual([]);
  });

  it('ignores the keys vendors publish as documentation examples', () => {
    const awsId = ['AKIAIOSFODNN7', 'EXAMPLE'].join('');
    const stripe = ['sk', 'test', '4eC39HqLyjWDarjtT1zdp7dc'].join('_');
    expect(scanText(`aws_access_key_id = ${awsId}\ncurl -u ${stripe}: https://api.stripe.com`)).toEqual([]);
  });

  it('finds secrets at the right lines in a long text scanned in segments', () => {
    const { positives } = generateFixtures();
    const notes = positives;
    let line = 1;
    const expected: string[] = [];
    for (const p of notes) {
      expected.push(`${p.rule}:${line + p.line! - 1}`);
      line += p.text.split('\n').length + 1;
    }
    const text = notes.map((p) => p.text).join('\n\n');
    expect(text.length).toBeGreaterThan(64 * 1024);
    const found = new Set(scanText(text).map((f) => `${f.rule}:${f.line}`));
    const missing = expected.filter((e) => !found.has(e));
    expect(missing.length / expected.length).toBeLessThanOrEqual(0.03);
  });

  it('finds a private key whose header and body straddle a segment boundary', () => {
    const filler = Array.from({ length: 2000 }, (_, i) => `line ${i} of ordinary prose about the deploy`).join('\n');
    const body = (rng.base64(600).match(/.{1,64}/g) ?? []).join('\n');
    const text = `${filler}\n-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----\n${filler}`;
    expect(scanText(text)).toEqual([{ rule: 'private-key', line: 2001, column: 1 }]);
  });

  it('runs only the requested rules', () => {
    const text = `ghp ${token()}\nAKIA${rng.chars('ABCDEFGHJKLMNPQRSTUVWXYZ234567', 16)}`;
    expect(scanText(text, { rules: ['aws-access-token'] }).map((f) => f.rule)).toEqual(['aws-access-token']);
  });

  // A backtracking blow-up would hang here far past the test timeout; linear rules finish quickly.
  it.each([
    ['letters', 'a'.repeat(1_000_000)],
    ['upper-case', 'A'.repeat(1_000_000)],
    ['assignments', 'password='.repeat(111_112)],
    ['keys', 'api_key: '.repeat(111_112)],
    ['prefixes', 'sk-'.repeat(333_334)],
    ['userinfo', '://a:'.repeat(200_000)],
    ['JWT headers', 'eyJhbGciOiJIUzI1NiIsInR5cCI6.'.repeat(34_500)],
    ['PEM headers', '-----BEGIN RSA PRIVATE KEY-----\\n'.repeat(31_000)],
    ['base64', Buffer.alloc(750_000, 7).toString('base64')],
    ['URLs without @', 'postgres://user:pass'.repeat(50_000)],
    ['spaces after a key', `password${' '.repeat(1_000_000)}`],
  ])('scans a 1 MB adversarial line of %s in linear time', (_name, line) => {
    expect(line.length).toBeGreaterThanOrEqual(1_000_000);
    expect(() => scanText(line)).not.toThrow();
  });
});

describe('the rules table', () => {
  it('has unique ids, global regexes and lower-case keywords', () => {
    expect(new Set(secretRules.map((r) => r.id)).size).toBe(secretRules.length);
    for (const rule of secretRules) {
      expect(rule.regex.global, rule.id).toBe(true);
      for (const k of rule.keywords) expect(k, rule.id).toBe(k.toLowerCase());
    }
  });

  it('uses only bounded quantifiers, so no rule can backtrack catastrophically', () => {
    for (const rule of secretRules) {
      const source = rule.regex.source
        .replace(/\\./g, 'x')
        .replace(/\[[^\]]*\]/g, 'x')
        .replace(/\(\?<?[=!]?/g, '(');
      expect(source, rule.id).not.toMatch(/[*+]|\{\d+,\}/);
    }
  });
});

describe('passwords on client command lines and under Basic-auth names', () => {
  const pw = () => `${rng.chars('ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789', 14)}7q`;
  it.each([
    ['mysql with an attached -p', (p: string) => `mysql -u app -p'${p}' -h db.internal.test app`],
    ['mysqldump --password=', (p: string) => `mysqldump --password=${p} app > app.sql`],
    ['redis-cli -a', (p: string) => `redis-cli -h cache.internal.test -a ${p} ping`],
    ['sshpass -p', (p: string) => `sshpass -p "${p}" ssh deploy@host.internal.test`],
    ['PGPASSWORD', (p: string) => `PGPASSWORD=${p} psql -h db -U app`],
    ['BASIC_AUTH base64', (p: string) => `BASIC_AUTH=${Buffer.from(`ops:${p}`).toString('base64')}`],
  ])('finds %s', (_name, make) => {
    expect(scanText(make(pw()))).toHaveLength(1);
  });

  it.each([
    'mysql -u app -p app   # prompts for the password',
    'mysql -u root -p"$MYSQL_ROOT_PASSWORD"',
    'redis-cli -a <password> ping',
    `BASIC_AUTH=${Buffer.from('user:password').toString('base64')}`,
    'BASIC_AUTH=$(echo -n "$USER:$PASS" | base64)',
  ])('ignores %s', (text) => {
    expect(scanText(text)).toEqual([]);
  });
});
