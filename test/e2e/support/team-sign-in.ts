import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Settings as a person fills them: the vault's team server, then the project's repository (the test
 * project has no git remote). Returns the Settings card of the project, with its sign-in button.
 */
export async function setTeamServer(page: Page, serverUrl: string, repo: string) {
  await page.locator('button.nav-item', { hasText: 'Settings' }).click();
  await page.getByLabel('Team memory server URL (optional)').fill(serverUrl);
  await page.getByRole('form', { name: 'Model and servers' }).getByRole('button', { name: 'Save', exact: true }).click();
  const projectCard = page.getByRole('region', { name: 'This project' });
  await projectCard.getByText(`Server: ${serverUrl}.`).waitFor();
  await projectCard.getByLabel(/^Repository/).fill(repo);
  await projectCard.getByRole('button', { name: 'Save', exact: true }).click();
  await projectCard.getByText(`Repository: ${repo}.`).waitFor();
  return projectCard;
}

/** The server's sign-in page in the tab the app opened, filled by `username`; resolves on the app's loopback page. */
export async function signInInTab(tab: Page, serverUrl: string, username: string, password: string): Promise<void> {
  await tab.waitForLoadState();
  expect(new URL(tab.url()).origin).toBe(new URL(serverUrl).origin);
  await tab.getByLabel('Username').fill(username);
  await tab.getByLabel('Password').fill(password);
  await tab.getByRole('button', { name: 'Sign in' }).click();
  await tab.getByRole('heading', { name: 'Signed in to Strata' }).waitFor();
  expect(new URL(tab.url()).hostname).toBe('127.0.0.1');
  await tab.close();
}

/**
 * The team server and repository set in Settings, then the sign-in in the new tab the app opens, where
 * `username` types their password. Returns once the status bar says the first sync is done.
 */
export async function signInToTeam(page: Page, serverUrl: string, repo: string, username: string, password: string): Promise<void> {
  const projectCard = await setTeamServer(page, serverUrl, repo);
  const newTab = page.context().waitForEvent('page');
  await projectCard.getByRole('button', { name: 'Sign in to the team server' }).click();
  await signInInTab(await newTab, serverUrl, username, password);
  // The server names the account (GET /api/me).
  await projectCard.getByText(`Signed in as ${username}.`).waitFor();
  await page.getByRole('button', { name: 'Team memory synced' }).waitFor();
}
