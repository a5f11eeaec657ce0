import { Component, type ReactNode } from 'react';

/**
 * A screen that throws while rendering shows what happened and a way back, instead of taking the whole
 * window blank; the sidebar and status bar stay usable. Keyed by screen, so switching screens resets it.
 */
export class ScreenBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <section className="empty-state compact" role="alert" aria-labelledby="screen-error-heading">
        <h1 id="screen-error-heading">This screen ran into a problem</h1>
        <p className="muted">{this.state.error.message}</p>
        <button type="button" className="button primary" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </section>
    );
  }
}
