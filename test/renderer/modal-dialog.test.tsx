import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ModalDialog } from '../../renderer/src/ui/modal-dialog';

afterEach(cleanup);

/** A page with a button before and after the dialog, and a listener behind it that counts the Escapes reaching it. */
function renderDialog(props: { stopEscape?: boolean; trapFocus?: boolean; role?: 'dialog' | 'alertdialog' } = {}) {
  const heard = { escapes: 0, closed: 0 };
  render(
    <div onKeyDown={(e) => e.key === 'Escape' && heard.escapes++}>
      <button type="button">Behind, before</button>
      <ModalDialog className="wide" labelledBy="shell-heading" describedBy="shell-text" onEscape={() => heard.closed++} {...props}>
        <h2 id="shell-heading">Rename the note</h2>
        <p id="shell-text">The new name is used everywhere.</p>
        <input aria-label="New name" />
        <button type="button">Save</button>
      </ModalDialog>
      <button type="button">Behind, after</button>
    </div>,
  );
  return heard;
}

describe('ModalDialog, the shell of the modal dialogs', () => {
  it('is a modal dialog named by its heading and described by its text, over a backdrop', () => {
    renderDialog({ role: 'alertdialog' });
    const dialog = screen.getByRole('alertdialog', { name: 'Rename the note' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.getAttribute('aria-describedby')).toBe('shell-text');
    expect(dialog.className).toBe('modal wide');
    expect(dialog.parentElement!.className).toBe('modal-backdrop');
  });

  it('keeps Tab inside the dialog: neither Tab from its last control nor Shift+Tab from its first reaches what is behind', async () => {
    renderDialog();
    screen.getByRole('button', { name: 'Save' }).focus();
    await userEvent.tab();
    expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);
    screen.getByLabelText('New name').focus();
    await userEvent.tab({ shift: true });
    expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);
  });

  it('leaves Tab alone when the dialog traps it itself (trapFocus false)', async () => {
    renderDialog({ trapFocus: false });
    screen.getByRole('button', { name: 'Save' }).focus();
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Behind, after' }));
  });

  it('answers Escape with onEscape, which goes on to the page unless stopEscape keeps it in the dialog', async () => {
    const passing = renderDialog();
    screen.getByLabelText('New name').focus();
    await userEvent.keyboard('{Escape}');
    expect(passing).toEqual({ escapes: 1, closed: 1 });
    cleanup();

    const kept = renderDialog({ stopEscape: true });
    screen.getByLabelText('New name').focus();
    await userEvent.keyboard('{Escape}');
    expect(kept).toEqual({ escapes: 0, closed: 1 });
  });
});
