import { promises as fs } from 'node:fs';
import path from 'node:path';
import { AppFailure } from '../../../common/result.js';
import type { SecretAllowanceView } from '../../../common/domain/secrets.js';
import { DamagedAllowancesError, SecretAllowanceStore, secretRules, type SecretAllowance } from '../secrets/index.js';
import { allowancePlace } from './allowance-place.js';
import type { Services } from '../services.js';
import type { Handlers } from './dispatcher.js';

type SecretsChannel = 'secrets:list-allowances' | 'secrets:rule-kinds' | 'secrets:allow' | 'secrets:allow-in-file' | 'secrets:revoke-allowance';

const ruleIds = new Set(secretRules.map((r) => r.id));
const ruleKinds = Object.fromEntries(secretRules.map((r) => [r.id, r.description]));

function knownRule(rule: string): void {
  if (!ruleIds.has(rule)) throw new AppFailure('invalid_request', `no scanner rule named ${rule}`);
}

/** A vault-relative path read only when its real location is inside the vault (no symlink out). */
async function readInVault(root: string, relative: string): Promise<string> {
  const realRoot = await fs.realpath(root);
  const real = await fs.realpath(path.join(root, relative)).catch(() => null);
  if (real === null) throw new AppFailure('not_found', `${relative} is not in the vault any more`);
  if (!real.startsWith(realRoot + path.sep)) throw new AppFailure('permission_denied', `${relative} leads outside the vault`);
  return fs.readFile(real, 'utf8');
}

/**
 * The user's "Not a secret" list of the current vault: marked from a refusal card or the team panel,
 * listed and revoked in Settings. The agent's tools never reach these channels or the file behind them.
 */
// A damaged list is the user's to fix; say where it is rather than "something went wrong".
async function readable<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DamagedAllowancesError) throw new AppFailure('io_error', error.message);
    throw error;
  }
}

export function createSecretsHandlers(services: Services): Pick<Handlers, SecretsChannel> {
  const store = () => SecretAllowanceStore.forVault(services.vault().root);
  // Settings names each place by its memory and project; the recorded path is only its tooltip.
  const view = ({ id, rule, where, createdAt }: SecretAllowance): SecretAllowanceView => ({ id, rule, where, place: allowancePlace(where, services.vault().files), createdAt });
  const handlers: Pick<Handlers, Exclude<SecretsChannel, 'secrets:rule-kinds'>> = {
    'secrets:list-allowances': () => store().list().map(view),
    'secrets:allow': async ({ rule, fingerprint, where }) => {
      knownRule(rule);
      const allowances = store();
      await allowances.allow({ rule, fingerprint, where });
      return allowances.list().map(view);
    },
    'secrets:allow-in-file': async ({ path: relative, line, column, rule, where }) => {
      knownRule(rule);
      const allowances = store();
      const text = await readInVault(services.vault().root, relative);
      if ((await allowances.allowInText(text, { rule, line, ...(column === undefined ? {} : { column }), where: `${where}: ${relative}` })) === 0) {
        throw new AppFailure('not_found', `rule ${rule} finds nothing on line ${line} of ${relative} any more`);
      }
      return allowances.list().map(view);
    },
    'secrets:revoke-allowance': async ({ id }) => {
      const allowances = store();
      if (!(await allowances.revoke(id))) throw new AppFailure('not_found', 'that allowance was already revoked');
      return allowances.list().map(view);
    },
  };
  return {
    'secrets:list-allowances': (r) => readable(() => handlers['secrets:list-allowances'](r)),
    'secrets:rule-kinds': () => ruleKinds,
    'secrets:allow': (r) => readable(() => handlers['secrets:allow'](r)),
    'secrets:allow-in-file': (r) => readable(() => handlers['secrets:allow-in-file'](r)),
    'secrets:revoke-allowance': (r) => readable(() => handlers['secrets:revoke-allowance'](r)),
  };
}
