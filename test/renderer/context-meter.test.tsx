import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ContextMeter } from '../../renderer/src/features/chat/context-meter';

afterEach(cleanup);

/** docs/memory.md#session-notes: used against the auto-compaction threshold, a warning within 20,000 tokens of it. */
describe('the context meter', () => {
  it('shows used against the threshold', () => {
    render(<ContextMeter context={{ used: 41_000, threshold: 167_000, warning: false }} />);
    const meter = screen.getByRole('meter', { name: 'Context used' }) as HTMLMeterElement;
    expect([meter.value, meter.max]).toEqual([41_000, 167_000]);
    expect(meter.parentElement!.textContent).toContain('41k / 167k tokens');
    expect(meter.parentElement!.className).not.toContain('warning');
  });

  it('is not shown before anything was sent', () => {
    render(<ContextMeter context={{ used: 0, threshold: 167_000, warning: false }} />);
    expect(screen.queryByRole('meter', { name: 'Context used' })).toBeNull();
    expect(document.body.textContent).not.toContain('0k / 167k');
  });

  it('turns to a warning near the threshold', () => {
    render(<ContextMeter context={{ used: 150_000, threshold: 167_000, warning: true }} />);
    const meter = screen.getByRole('meter', { name: 'Context used' });
    expect(meter.parentElement!.className).toContain('warning');
    expect(meter.parentElement!.textContent).toContain('compaction soon');
  });
});

describe('the context meter with context editing', () => {
  it('says how much the API cleared from the last request, and nothing when it cleared nothing', () => {
    render(<ContextMeter context={{ used: 90_000, threshold: 167_000, warning: false, cleared: 24_400 }} />);
    expect(screen.getByText('24k of old tool results cleared')).toBeTruthy();
    cleanup();
    render(<ContextMeter context={{ used: 90_000, threshold: 167_000, warning: false }} />);
    expect(screen.queryByText(/cleared/)).toBeNull();
  });
});
