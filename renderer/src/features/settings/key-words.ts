import type { CredentialStatus } from '../../../../common/domain/app';

/**
 * What Strata says about the API key, from what main reports (docs/security.md): the credential driver
 * it chose — the system keychain, Electron's safeStorage file, or, with neither, this process's memory —
 * and where the key in use came from. The Welcome screen and Settings say the same words, so the same
 * key reads the same on every machine, and nothing promises a keychain that is not there.
 */

/** What happens to a key the user adds now, by driver; null before main has said. */
export function keyWillBeKept(driver: string | undefined): string {
  switch (driver) {
    case 'keytar':
      return 'It is saved in your system keychain, never in a plain-text file.';
    case 'safe-storage':
      return 'No system keychain answered, so it is saved encrypted with your account’s key in Strata’s data folder, never as plain text.';
    case 'memory':
      return 'This computer has no system keychain, so a key added here lasts only until Strata stops. Set ANTHROPIC_API_KEY to keep one across restarts.';
    default:
      return 'Strata never writes it into a plain-text file.';
  }
}

/** Where the key in use is held, or null when there is none. */
export function keyInUse(credentials: CredentialStatus | null): string | null {
  if (!credentials || credentials.apiKey === 'missing') return null;
  if (credentials.apiKey === 'environment') return 'Using the key in the ANTHROPIC_API_KEY environment variable.';
  switch (credentials.driver) {
    case 'keytar':
      return 'Using the key saved in your system keychain.';
    case 'safe-storage':
      return 'Using the key saved encrypted in Strata’s data folder.';
    default:
      return 'Using the key you entered, until Strata stops (this computer has no system keychain).';
  }
}

/** The confirmation right after a key is saved, by driver. */
export function keySaved(driver: string | undefined): string {
  if (driver === 'keytar') return 'Saved to your system keychain.';
  if (driver === 'safe-storage') return 'Saved, encrypted.';
  return 'Saved until Strata stops (no keychain to keep it).';
}
