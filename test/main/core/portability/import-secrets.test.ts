import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bareImportItem, type ImportItem, type ImportPreview } from '../../../../common/domain/portability.js';
import { previewNotesAt, previewPaste, writeImport, writeZip } from '../../../../main/core/portability/index.js';
import { SecretAllowanceStore, vaultSecretScan } from '../../../../main/core/secrets/index.js';
import { ALNUM, githubToken, SeededRandom, UPPER } from '../../../fixtures/secrets/seeded-random.js';
import { tempDir } from '../../../support/temp-dir.js';
import { memoryText, openVault } from '../vault/vault-helpers.js';

const NOW = Date.UTC(2026, 11, 4, 15);
const SLUG = '-work-penny';
const DIR = `projects/${SLUG}/memory`;
const target = { projectSlug: SLUG, team: false };

// Made from a seed, so no key-shaped literal is committed.
const r = new SeededRandom(31);
const github = githubToken(r, 'ghp');
const awsId = `AKIA${r.chars(`${UPPER}234567`, 16)}`;
const awsSecret = r.chars(`${ALNUM}+/`, 40);
const password = `${r.chars(ALNUM, 12)}7q`;
const sshKey = ['-----BEGIN OPENSSH PRIVATE KEY-----', ...(r.base64(210).match(/.{1,70}/g) ?? []), '-----END OPENSSH PRIVATE KEY-----'].join('\n');

async function setup() {
  const root = await tempDir('strata-import-secrets-');
  const { vault } = await openVault(root);
  // Scanned as the app scans: the vault's rules and its "Not a secret" list.
  return { root, vault, guard: { scan: vaultSecretScan(root), shape: vault.memoryShape() } };
}

/** Every file under `root` that holds `needle` (history, blobs and the catalog cache included). */
async function filesHolding(root: string, needle: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(root, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && (await fs.readFile(file, 'latin1')).includes(needle)) out.push(path.relative(root, file));
  }
  return out;
}

/** What the preview shows of an item, the text aside: none of it may hold a secret. */
const shown = (item: ImportItem) => JSON.stringify({ fileName: item.fileName, name: item.name, description: item.description, findings: item.findings, withoutSecrets: item.withoutSecrets });
const where = (item: ImportItem) => item.findings?.map((f) => [f.label, f.field, f.line]);
/** The items as the renderer sends them back: what the preview found is not trusted, so not sent. */
const sent = (preview: ImportPreview) => preview.items.map(bareImportItem);

describe('an import is scanned like any agent write', () => {
  it('flags a zip note with an AWS key pair and a GitHub token by kind and line, names it from its words, holds it back, and writes the rest', async () => {
    const { root, vault, guard } = await setup();
    const zip = path.join(await tempDir(), 'notes.zip');
    const keys = `aws_access_key_id=${awsId}\naws_secret_access_key=${awsSecret}\nDeploy token ${github}\n`;
    await fs.writeFile(zip, writeZip([{ name: 'backup user.md', data: Buffer.from(keys) }, { name: 'trip.md', data: Buffer.from('# Japan trip\n\nFly to Osaka on May 3.\n') }], new Date(NOW)));

    const preview = await previewNotesAt(zip, NOW, guard);
    const [note, trip] = preview.items;
    expect(where(note!)).toEqual([['AWS access key id', 'text', 1], ['AWS secret access key next to its name', 'text', 2], ['GitHub personal access token', 'text', 3]]);
    expect(note!.findings!.every((f) => /^[a-f0-9]{64}$/.test(f.fingerprint ?? ''))).toBe(true);
    // The description (which becomes the MEMORY.md line) was the note's first line: the key is blanked out of it.
    expect(note).toMatchObject({ fileName: 'user_backup_user.md', name: 'backup user', description: 'aws_access_key_id=[secret-removed]' });
    for (const value of [awsId, awsSecret, github]) expect(shown(note!)).not.toContain(value);
    expect(trip!.findings).toBeUndefined();

    const result = await writeImport(vault, target, sent(preview), guard.scan);
    expect(result.written).toEqual([`${DIR}/user_japan_trip.md`]);
    expect(result.heldBack.map((i) => [i.fileName, where(i)])).toEqual([['user_backup_user.md', where(note!)]]);
    expect(await fs.readFile(path.join(root, DIR, 'MEMORY.md'), 'utf8')).toBe('- [Japan trip](user_japan_trip.md) — Fly to Osaka on May 3.\n');
    for (const value of [awsId, awsSecret, github]) expect(await filesHolding(root, value)).toEqual([]);
  });

  it('flags a verbatim memory holding an OpenSSH private key; "Leave the secret out" writes it without the key', async () => {
    const { root, vault, guard } = await setup();
    const notes = await tempDir('strata-notes-');
    await fs.writeFile(path.join(notes, 'reference_deploy_key.md'), memoryText('Deploy key', 'the key the deploy uses', `The deploy logs in with:\n\n${sshKey}\n`, 'reference'));

    const preview = await previewNotesAt(notes, NOW, guard);
    const [item] = preview.items;
    expect(item!.verbatim).toBeDefined();
    expect(where(item!)).toEqual([['PEM or OpenSSH/PGP private key block', 'text', 3]]);
    expect(shown(item!)).not.toContain(sshKey.split('\n')[1]);
    const held = await writeImport(vault, target, sent(preview), guard.scan);
    expect(held).toMatchObject({ written: [], heldBack: [{ fileName: 'reference_deploy_key.md' }] });

    const result = await writeImport(vault, target, [{ ...bareImportItem(item!), ...item!.withoutSecrets }], guard.scan);
    expect(result.written).toEqual([`${DIR}/reference_deploy_key.md`]);
    const written = await fs.readFile(path.join(root, DIR, 'reference_deploy_key.md'), 'utf8');
    expect(written).toContain('\nThe deploy logs in with:\n\n[secret-removed]\n');
    for (const line of sshKey.split('\n').slice(1, -1)) expect(await filesHolding(root, line)).toEqual([]);
  });

  it('never makes a file name or a description of a pasted secret, and holds the item back', async () => {
    const { root, vault, guard } = await setup();
    const preview = previewPaste(`- My github token is ${github}\n- Staging database password: ${password}\n- Likes jazz`, 'chatgpt', NOW, guard);
    const [token, db] = preview.items;
    expect(token).toMatchObject({ fileName: 'user_my_github_token_is_secret_removed.md', name: 'My github token is [secret-removed]', description: 'My github token is [secret-removed]' });
    expect(token!.body).toContain(github);
    expect(where(token!)).toEqual([['GitHub personal access token', 'text', 1]]);
    expect(db!.description).toBe('Staging database password: [secret-removed]');
    expect(where(db!)).toEqual([['password assigned in configuration or code', 'text', 1]]);
    for (const item of preview.items) expect(shown(item).toLowerCase()).not.toMatch(new RegExp(`${github.slice(4, 12)}|${password.slice(0, 8)}`, 'i'));

    const result = await writeImport(vault, target, sent(preview), guard.scan);
    expect(result.written).toEqual([`${DIR}/user_likes_jazz.md`]);
    expect(result.heldBack.map((i) => i.fileName)).toEqual([token!.fileName, db!.fileName]);
    expect(await filesHolding(root, github)).toEqual([]);
    expect(await filesHolding(root, password)).toEqual([]);
  });

  it('lets an item through once the user marks each of its values "Not a secret", one value a mark', async () => {
    const { root, vault, guard } = await setup();
    const preview = previewPaste(`- The test fixtures use ${github} and ${awsId}`, 'other', NOW, guard);
    const [item] = preview.items;
    const [first, second] = item!.findings!;
    const allowances = SecretAllowanceStore.forVault(root);
    await allowances.allow({ rule: first!.rule, fingerprint: first!.fingerprint!, where: 'memory import' });
    const once = await writeImport(vault, target, sent(preview), guard.scan);
    expect(once.written).toEqual([]);
    expect(where(once.heldBack[0]!)).toEqual([[second!.label, 'text', 1]]);

    await allowances.allow({ rule: second!.rule, fingerprint: second!.fingerprint!, where: 'memory import' });
    const twice = await writeImport(vault, target, sent(preview), guard.scan);
    expect(twice.written).toEqual([`${DIR}/${item!.fileName}`]);
    expect(await fs.readFile(path.join(root, DIR, item!.fileName), 'utf8')).toContain(`${github} and ${awsId}`);
  });

  it('scans again at the write: an item edited after the preview to hold a secret is held back there', async () => {
    const { root, vault, guard } = await setup();
    const preview = previewPaste('- Likes jazz\n- Prefers short answers', 'claude', NOW, guard);
    expect(preview.items.every((i) => i.findings === undefined)).toBe(true);
    const [jazz, short] = sent(preview);
    const result = await writeImport(vault, target, [{ ...jazz!, name: `Jazz ${github}` }, { ...short!, body: `aws_secret_access_key=${awsSecret}` }], guard.scan);
    expect(result.written).toEqual([]);
    expect(result.heldBack.map((i) => where(i))).toEqual([[['GitHub personal access token', 'name', 1]], [['AWS secret access key next to its name', 'text', 1]]]);
    await expect(fs.stat(path.join(root, 'projects'))).rejects.toThrow();
  });
});
