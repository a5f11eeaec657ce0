import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Settings as a person fills them: the vault's team server, the project's repository (the test project has
 * no git remote), then the sign-in in the new tab the app opens, where `username` types their password.
 * Returns once the status bar says the first sync is done.
 */
export async function signInToTeam(page: Page, serverUrl: string, repo: string, username: string, password: string): Promise<void> {
  await page.locator('button.nav-item', { hasText: 'Settings' }).click();
  await page.getByLabel('Team memory server URL (optional)').fill(serverUrl);
  await page.getByRole('form', { name: 'Model and servers' }).getByRole('button', { name: 'Save', exact: true }).click();
  const projectCard = page.getByRole('region', { name: 'This project' });
  await projectCard.getByText(`Server: ${serverUrl}.`).waitFor();
  await projectCard.getByLabel(/^Repository/).fill(repo);
  await projectCard.getByRole('button', { name: 'Save', exact: true }).click();
  await projectCard.getByText(`Repository: ${repo}.`).waitFor();

  const newTab = page.context().waitForEvent('page');
  await projectCard.getByRole('button', { name: 'Sign in to the team server' }).click();
  const tab = await newTab;
  await tab.waitForLoadState();
  expect(new URL(tab.url()).origin).toBe(new URL(serverUrl).origin);
  await tab.getByLabel('Username').fill(username);
  await tab.getByLabel('Password').fill(password);
  await tab.getByRole('button', { name: 'Sign in' }).click();
  await tab.getByRole('heading', { name: 'Signed in to Strata' }).waitFor();
  expect(new URL(tab.url()).hostname).toBe('127.0.0.1');
  await tab.close();
  // The server names the account (GET /api/me).
  await projectCard.getByText(`Signed in as ${username}.`).waitFor();
  await page.getByRole('button', { name: 'Team memory synced' }).waitFor();
}
